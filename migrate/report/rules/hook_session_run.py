"""`session.run(...)` inside a hook.

## What it does
Checks for `.run(...)` calls on a session (`session.run`, `run_context.session.run`,
`self._sess.run`) in the protocol methods of `SessionRunHook` subclasses.

## Why is this bad?
A hook may run graph ops itself (read a variable in `after_create_session`,
evaluate a metric in `end`). Without sessions there is nothing to run: in TF2
variables are read eagerly, and per-step values must come from the training
step. Running extra ops per step was also a hidden cost in TF1.

## Example
```python
def after_create_session(self, session, coord):
    self._start_step = session.run(self._global_step)
```

## Use instead
```python
def on_train_begin(self, logs=None):
    self._start_step = int(self.model.optimizer.iterations.numpy())
```

## References
- https://www.tensorflow.org/guide/migrate/sessionrunhook_callback
- https://www.tensorflow.org/guide/effective_tf2
"""
from __future__ import annotations

from typing import Iterator

from migrate.report.hierarchy import TF1_TO_KERAS, HookClass
from migrate.report.model import HookUse
from migrate.report.registry import Rule, register

RULE = Rule(code="TFM205", name="hook-session-run", fix="manual", effort="rewrite", doc=__doc__, modern_equivalent="modern/callbacks/")


@register(RULE, HookClass)
def check(hook: HookClass, context: None) -> Iterator[tuple[HookUse, str]]:
    for method, use in hook.uses:
        if use.kind == "session_run":
            yield use, (
                f"`{use.detail}(...)` in `{hook.name}.{method}` runs graph ops outside the training step; in "
                f"`{TF1_TO_KERAS[method][0]}` read values eagerly (`variable.numpy()`, `self.model.optimizer.iterations`) "
                "or have `train_step` return them in `logs`"
            )
