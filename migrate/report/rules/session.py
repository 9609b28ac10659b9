"""`tf.Session` / `tf.InteractiveSession`.

## What it does
Checks for references to `tf.Session` and `tf.InteractiveSession`.

## Why is this bad?
TF2 executes eagerly and compiles with `tf.function`; sessions exist only as
`tf.compat.v1.Session` around an explicit `tf.Graph`. Code that builds a
graph then calls `sess.run` must be restructured: a Keras model trained with
`fit`, or a `tf.function` training step called in a Python loop.

## Example
```python
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(1000):
        sess.run(train_op)
```

## Use instead
```python
model.compile(optimizer=optimizer, loss=loss)   # modern/training.py
model.fit(dataset, steps_per_epoch=1000)
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://www.tensorflow.org/guide/function
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM303", name="session", effort="redesign", doc=__doc__, modern_equivalent="modern/training.py")

NAMES = frozenset({"tensorflow.Session", "tensorflow.InteractiveSession"})


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` runs a graph, which TF2 code does not build; execute eagerly: train with "
        "`model.fit` or call a `tf.function` step in a loop (see modern/training.py)"
    )
