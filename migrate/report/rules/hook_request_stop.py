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

import ast
from collections.abc import Iterator

from migrate.report.context import FileContext, MethodBody, spelled
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM204", name="hook-request-stop", effort="rewrite", doc=__doc__, modern_equivalent="modern/callbacks/stop_at_step.py")


@register(RULE, MethodBody)
def check(method: MethodBody, context: FileContext) -> Iterator[Message]:
    for node in method.calls:
        if isinstance(node.func, ast.Attribute) and node.func.attr == "request_stop":
            yield node, (
                f"`{spelled(node.func)}()` in `{method.class_name}.{method.name}` stops the MonitoredSession after this step; "
                "in the callback set `self.model.stop_training = True` (checked after `on_train_batch_end`)"
            )
