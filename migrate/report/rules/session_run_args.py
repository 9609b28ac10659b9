"""`SessionRunArgs`: extra fetches and feeds requested by a hook's `before_run`.

## What it does
Checks for references to `tf.train.SessionRunArgs` / `tf.estimator.SessionRunArgs`
and says what its `fetches` and `feed_dict` turn into.

## Why is this bad?
A hook asks the session to evaluate extra tensors (`fetches`) or to feed
placeholders (`feed_dict`) in the same `run` as the training step. Keras has
neither: a callback cannot add outputs to the compiled train function, and
there is no feed injection. Extra values must be produced by the model's
`train_step` and returned in `logs`; fed values must come through `tf.data`.

## Example
```python
def before_run(self, run_context):
    return tf.train.SessionRunArgs({"loss": self._loss, "step": self._global_step})
```

## Use instead
```python
def on_train_batch_end(self, batch, logs=None):
    step = int(self.model.optimizer.iterations.numpy())
    loss = logs["loss"]   # an epoch running mean: report the step loss from train_step for parity
```

## References
- https://www.tensorflow.org/guide/migrate/sessionrunhook_callback
- https://keras.io/guides/customizing_what_happens_in_fit/
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM203", name="session-run-args", effort="rewrite", doc=__doc__, modern_equivalent="modern/callbacks/")

NAMES = frozenset({"tensorflow.train.SessionRunArgs", "tensorflow.estimator.SessionRunArgs"})


def _requested(call: ast.Call) -> tuple[bool, bool]:
    """(asks for fetches, feeds values), from positional and keyword arguments."""
    keywords = {keyword.arg for keyword in call.keywords}
    fetches = bool(call.args) or "fetches" in keywords
    feeds = len(call.args) > 1 or "feed_dict" in keywords
    return fetches, feeds


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    call = reference.call
    fetches, feeds = _requested(call) if call is not None else (True, False)
    advice = []
    if fetches:
        advice.append("have the model's `train_step` return the fetched values in `logs` and read them in `on_train_batch_end`")
    if feeds:
        advice.append("Keras cannot feed placeholders: deliver fed values through the tf.data pipeline (modern/pipeline.py)")
    yield reference.node, (
        f"`{reference.spelling}` adds fetches/feeds to the session's run, which Keras callbacks cannot do; "
        + "; ".join(advice or ["remove it"])
    )
