"""An in-repo SessionRunHook subclass created (`hooks=[MyHook(...)]`).

## What it does
Checks for calls that create a `SessionRunHook` subclass defined in the
scanned code (found by the whole-codebase pass, TFM201), in any file and
whatever the import: `MyHook(...)`, `hooks_lib.MyHook(...)`.

## Why is this bad?
Each place a hook is created is where it is handed to an Estimator
(`estimator.train(..., hooks=[...])`), a `MonitoredTrainingSession` or an
`EstimatorSpec(training_hooks=...)`. Once the hook is rewritten as a Keras
callback, each of these places must create the callback instead and pass it
to `model.fit(callbacks=[...])`.

## Example
```python
class StopHook(tf.train.SessionRunHook):
    def after_run(self, run_context, run_values):
        run_context.request_stop()

estimator.train(input_fn, hooks=[StopHook()])
```

## Use instead
```python
model.fit(dataset, callbacks=[StopCallback()])   # the callback that replaces StopHook
```

## References
- https://www.tensorflow.org/guide/migrate/sessionrunhook_callback
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.hierarchy import HookInstantiation
from migrate.report.registry import Rule, register

RULE = Rule(code="TFM208", name="hook-instantiation", effort="rewrite", doc=__doc__, modern_equivalent="modern/callbacks/")


@register(RULE, HookInstantiation)
def check(site: HookInstantiation, context: None) -> Iterator[tuple[HookInstantiation, str]]:
    hook = site.hook
    yield site, (
        f"`{site.spelling}(...)` creates `{hook.name}`, a SessionRunHook ({hook.path}:{hook.line}); create its Keras "
        "callback here instead and pass it to `model.fit(callbacks=[...])`"
    )
