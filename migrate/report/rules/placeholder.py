"""`tf.placeholder` and its variants.

## What it does
Checks for references to `tf.placeholder`, `tf.placeholder_with_default` and
`tf.sparse_placeholder` (any spelling, `tf.compat.v1.` included).

## Why is this bad?
Placeholders are graph inputs filled by `feed_dict` at `session.run`; they
do not exist in eager TF2 (`tf.compat.v1.placeholder` raises outside a
`tf.Graph`). Inputs become `keras.Input` for models and a `tf.data` pipeline
for data; values fed per step (learning rates, flags) become variables or
callback state.

## Example
```python
images = tf.placeholder(tf.float32, [None, 784])
sess.run(train_op, feed_dict={images: batch})
```

## Use instead
```python
dataset = tf.data.Dataset.from_generator(batches, output_signature=...)  # modern/pipeline.py
model.fit(dataset)
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://www.tensorflow.org/guide/data
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM301", name="placeholder", effort="rewrite", doc=__doc__, modern_equivalent="modern/pipeline.py")

NAMES = frozenset({"tensorflow.placeholder", "tensorflow.placeholder_with_default", "tensorflow.sparse_placeholder"})


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` is a graph input fed by `feed_dict` and fails in eager TF2; use `keras.Input` "
        "for the model and a tf.data pipeline for the values (see modern/pipeline.py)"
    )
