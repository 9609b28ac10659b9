"""`EstimatorSpec` / `TPUEstimatorSpec` returned by a `model_fn`.

## What it does
Checks for references to `tf.estimator.EstimatorSpec`, `tf.estimator.tpu.TPUEstimatorSpec`
and `tf.contrib.tpu.TPUEstimatorSpec`.

## Why is this bad?
An `EstimatorSpec` bundles what Keras splits apart: the predictions are the
model's outputs, `loss` goes to `compile(loss=...)`, `train_op` is replaced by
the optimizer passed to `compile`, `eval_metric_ops` by `compile(metrics=...)`,
and `training_hooks` / `evaluation_hooks` by callbacks. It only exists with
`tf.estimator`, which TF 2.16 removed.

## Example
```python
return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                  eval_metric_ops={"accuracy": accuracy})
```

## Use instead
```python
model = keras.Model(inputs, logits)
model.compile(optimizer=keras.optimizers.SGD(0.1),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
```

## References
- https://www.tensorflow.org/guide/migrate/migrating_estimator
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM102", name="estimator-spec", effort="redesign", doc=__doc__, modern_equivalent="modern/model.py")

NAMES = frozenset({
    "tensorflow.estimator.EstimatorSpec",
    "tensorflow.estimator.tpu.TPUEstimatorSpec",
    "tensorflow.contrib.tpu.TPUEstimatorSpec",
})


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` disappears with tf.estimator; move its outputs to the Keras model, "
        "`loss`/`train_op`/`eval_metric_ops` to `model.compile`, its hooks to callbacks (see modern/model.py)"
    )
