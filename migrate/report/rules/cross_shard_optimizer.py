"""`tf.tpu.CrossShardOptimizer` (TPUEstimator's gradient aggregation).

## What it does
Checks for references to `tf.compat.v1.tpu.CrossShardOptimizer`,
`tf.contrib.tpu.CrossShardOptimizer` and its private module path.

## Why is this bad?
Inside a `TPUEstimator` `model_fn`, the TF1 optimizer is wrapped so that
gradients are averaged across TPU shards before being applied. In TF2 the
distribution strategy does that: a Keras optimizer created under
`TPUStrategy.scope()` aggregates gradients across replicas by itself, and the
wrapper has no TF2 counterpart.

## Example
```python
optimizer = tf.tpu.CrossShardOptimizer(tf.train.AdamOptimizer(1e-3))
```

## Use instead
```python
strategy = tf.distribute.TPUStrategy(resolver)
with strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(1e-3, epsilon=1e-8), loss=loss)
```

## References
- https://www.tensorflow.org/guide/migrate/tpu_estimator
- https://www.tensorflow.org/guide/tpu
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM512", name="cross-shard-optimizer", effort="rewrite", doc=__doc__, modern_equivalent="modern/training.py")

NAMES = frozenset({"tensorflow.tpu.CrossShardOptimizer", "tensorflow.contrib.tpu.CrossShardOptimizer"})


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` averages gradients across TPU shards inside a TPUEstimator model_fn; in TF2 create "
        "the Keras optimizer under `tf.distribute.TPUStrategy(...).scope()`, which aggregates gradients across replicas"
    )
