"""Queue-based input pipelines: queue runners, input producers, `tf.train.batch`.

## What it does
Checks for references to `tf.train.start_queue_runners`, `tf.train.QueueRunner`,
`tf.train.Coordinator`-driven input producers (`string_input_producer`,
`slice_input_producer`, …), `tf.train.batch` / `shuffle_batch` and the queue
classes (`tf.FIFOQueue`, `tf.RandomShuffleQueue`, …).

## Why is this bad?
Queue runners were deprecated in TF 1.x and do not run in eager mode; they
need threads started against a session. `tf.data` replaces the whole
pipeline, with deterministic ordering and prefetching.

## Example
```python
filenames = tf.train.string_input_producer(files)
images, labels = tf.train.shuffle_batch([image, label], batch_size=128, capacity=1000, min_after_dequeue=500)
threads = tf.train.start_queue_runners(sess=sess, coord=coord)
```

## Use instead
```python
dataset = tf.data.TFRecordDataset(files).map(parse).shuffle(1000).batch(128).prefetch(tf.data.AUTOTUNE)
```

## References
- https://www.tensorflow.org/guide/data
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM305", name="queue-runner", effort="rewrite", doc=__doc__, modern_equivalent="modern/pipeline.py")

TRAIN_NAMES = (
    "start_queue_runners", "QueueRunner", "add_queue_runner", "queue_runner",
    "string_input_producer", "input_producer", "range_input_producer", "slice_input_producer",
    "batch", "shuffle_batch", "batch_join", "shuffle_batch_join",
    "maybe_batch", "maybe_shuffle_batch", "maybe_batch_join", "maybe_shuffle_batch_join",
)
QUEUES = ("FIFOQueue", "RandomShuffleQueue", "PaddingFIFOQueue", "PriorityQueue", "QueueBase")
NAMES = frozenset(f"tensorflow.train.{name}" for name in TRAIN_NAMES) | frozenset(
    f"tensorflow.{name}" for name in QUEUES  # tf.queue.FIFOQueue is the same class: canonical() maps it here
)


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` belongs to the queue-runner input pipeline, which needs session threads and "
        "does not run eagerly; build the pipeline with tf.data (see modern/pipeline.py)"
    )
