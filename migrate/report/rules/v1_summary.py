"""TF1 summaries: `tf.summary.merge_all`, `merge`, `FileWriter`.

## What it does
Checks for references to `tf.summary.merge_all`, `tf.summary.merge`,
`tf.summary.FileWriter`, `tf.summary.FileWriterCache`, `tf.summary.Summary`
and `tf.summary.tensor_summary`.

## Why is this bad?
TF1 summaries are graph ops collected in `SUMMARIES`, merged, run through a
session and written by a `FileWriter` (or `SummarySaverHook` every N steps).
TF2 summaries are written eagerly inside a default writer with an explicit
step; for Keras training `TensorBoard(update_freq=N)` does it.

## Example
```python
tf.summary.scalar("loss", loss)
merged = tf.summary.merge_all()
writer = tf.summary.FileWriter(log_dir)
writer.add_summary(sess.run(merged), step)
```

## Use instead
```python
callbacks = [keras.callbacks.TensorBoard(log_dir, update_freq=100)]
# or: with tf.summary.create_file_writer(log_dir).as_default(): tf.summary.scalar("loss", loss, step=step)
```

## References
- https://www.tensorflow.org/tensorboard/migrate
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM510", name="v1-summary", effort="rewrite", doc=__doc__, modern_equivalent="modern/callbacks/summary_saver.py")

NAMES = frozenset(
    f"tensorflow.summary.{name}"
    for name in ("merge_all", "merge", "FileWriter", "FileWriterCache", "tensor_summary", "get_summary_description")
) | {"tensorflow.Summary"}  # also spelled tf.summary.Summary: the API tree's shortest path is the canonical one


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` belongs to graph-collected TF1 summaries written through a session; use "
        "`keras.callbacks.TensorBoard(update_freq=N)` or `tf.summary.create_file_writer` with an explicit step"
    )
