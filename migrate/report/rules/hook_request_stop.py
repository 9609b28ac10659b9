"""`run_context.request_stop()` inside a hook.

## What it does
Checks for `request_stop()` calls in the protocol methods of `SessionRunHook`
subclasses.

## Why is this bad?
`request_stop` ends a MonitoredSession after the current step: every hook
still sees that step's `after_run`, then `end` runs. The Keras equivalent is
setting `self.model.stop_training = True` in a batch callback (Keras 3 also
has `stop_evaluating` / `stop_predicting`); Keras checks it after
`on_train_batch_end`, still runs `on_epoch_end` and `on_train_end`. With
`steps_per_execution=N` the stop can overshoot by up to N−1 steps.

## Example
```python
def after_run(self, run_context, run_values):
    if run_values.results >= self._last_step:
        run_context.request_stop()
```

## Use instead
```python
def on_train_batch_end(self, batch, logs=None):
    if self.model.optimizer.iterations.numpy() >= self._last_step:
        self.model.stop_training = True
```

## References
- https://www.tensorflow.org/guide/migrate/logging_stop_hook
- https://keras.io/api/callbacks/base_callback/
"""
from __future__ import annotations

from typing import Iterator

from migrate.report.hierarchy import HookClass
from migrate.report.model import HookUse
from migrate.report.registry import Rule, register

RULE = Rule(code="TFM204", name="hook-request-stop", fix="manual", effort="rewrite", doc=__doc__, modern_equivalent="modern/callbacks/stop_at_step.py")


@register(RULE, HookClass)
def check(hook: HookClass, context: None) -> Iterator[tuple[HookUse, str]]:
    for method, use in hook.uses:
        if use.kind == "request_stop":
            yield use, (
                f"`{use.detail}()` in `{hook.name}.{method}` stops the MonitoredSession after this step; "
                "in the callback set `self.model.stop_training = True` (checked after `on_train_batch_end`)"
            )
