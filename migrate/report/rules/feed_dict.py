"""`feed_dict=` passed to `session.run` (or `eval`).

## What it does
Checks for calls with a `feed_dict=` keyword in files that use TensorFlow.

## Why is this bad?
Feeding copies every batch from Python into the graph at each step and
needs placeholders and sessions, neither of which exists in TF2. Data should
stream through `tf.data` (`from_generator` keeps Python-side generators);
per-step scalars become variables assigned eagerly.

## Example
```python
for images, labels in batches():
    sess.run(train_op, feed_dict={x: images, y: labels})
```

## Use instead
```python
dataset = tf.data.Dataset.from_generator(batches, output_signature=signature)
model.fit(dataset, epochs=1)
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://www.tensorflow.org/guide/data_performance
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.report.context import FileContext
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM302", name="feed-dict", effort="rewrite", doc=__doc__, modern_equivalent="modern/pipeline.py")


@register(RULE, "feed_dict=")
def check(node: ast.keyword, context: FileContext) -> Iterator[Message]:
    yield node.value, (
        "`feed_dict=` feeds placeholders at `session.run`, which TF2 does not have; stream the data "
        "with tf.data (`Dataset.from_generator`, see modern/pipeline.py) into `model.fit`"
    )
