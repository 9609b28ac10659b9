"""`iterator.initializer` run through a session.

## What it does
Checks for the `.initializer` attribute (of an initializable iterator or a
variable) in files that use TensorFlow.

## Why is this bad?
`initializer` is a graph op; running it (usually with `feed_dict` to fill
placeholders) restarts the dataset. TF2 datasets restart whenever they are
iterated again, so the op, the feed and the session call all go away. A
`SessionRunHook` that runs it in `after_create_session` maps to nothing at
all in Keras.

## Example
```python
sess.run(iterator.initializer, feed_dict={images_placeholder: images})
```

## Use instead
```python
for epoch in range(epochs):
    for batch in dataset:   # a fresh pass each epoch
        ...
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://www.tensorflow.org/guide/data
"""
from __future__ import annotations

import ast
from typing import Iterator

from migrate.report.aliases import dotted_parts
from migrate.report.context import FileContext
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM402", name="iterator-initializer", fix="manual", effort="rewrite", doc=__doc__, modern_equivalent="modern/callbacks/iterator_initializer.py")


@register(RULE, ".initializer")
def check(node: ast.Attribute, context: FileContext) -> Iterator[Message]:
    if context.tensorflow_name(node) is not None:
        return
    owner = ".".join(dotted_parts(node.value) or ["…"])
    yield node, (
        f"`{owner}.initializer` is a graph op run by a session to (re)start the iterator; TF2 datasets restart "
        "on every iteration, so drop the op, its feed and the session call"
    )
