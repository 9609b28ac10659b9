"""The TF1 global step: `tf.train.get_global_step()` and friends.

## What it does
Checks for references to `tf.train.get_global_step`,
`tf.train.get_or_create_global_step`, `tf.train.create_global_step`,
`tf.train.global_step`, `tf.train.assert_global_step` and
`tf.GraphKeys.GLOBAL_STEP`.

## Why is this bad?
The global step is a graph-collection variable that `minimize` increments
and hooks read. Keras counts steps in `model.optimizer.iterations`
(incremented once per applied update). Note that Keras' `batch` argument
restarts at 0 every epoch: it is not the global step.

## Example
```python
global_step = tf.train.get_or_create_global_step()
train_op = optimizer.minimize(loss, global_step=global_step)
```

## Use instead
```python
step = int(model.optimizer.iterations.numpy())   # e.g. in a callback
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://www.tensorflow.org/guide/migrate/logging_stop_hook
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM511", name="global-step", effort="rename", doc=__doc__, modern_equivalent="modern/callbacks/stop_at_step.py")

NAMES = frozenset(
    {
        f"tensorflow.train.{name}"
        for name in ("get_global_step", "get_or_create_global_step", "create_global_step", "global_step", "assert_global_step")
    }
    | {"tensorflow.GraphKeys.GLOBAL_STEP"}
)


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` is the graph's global-step variable, gone in TF2; read "
        "`model.optimizer.iterations` instead (it is not Keras' per-epoch `batch` index)"
    )
