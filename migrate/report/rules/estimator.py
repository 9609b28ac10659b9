"""`tf.estimator.Estimator` and `TPUEstimator` constructed or subclassed.

## What it does
Checks for references to `tf.estimator.Estimator`, `tf.compat.v1.estimator.tpu.TPUEstimator`
and `tf.contrib.tpu.TPUEstimator`, whatever the import spelling.

## Why is this bad?
`tf.estimator` was removed in TensorFlow 2.16 (`tensorflow-estimator` cannot be
imported on newer releases). An Estimator owns the training loop: it builds a
graph per mode from `model_fn`, runs it in a `MonitoredTrainingSession` and
adds its own hooks (step limit, NaN check, logging, checkpoints). All of that
has to move to a Keras model trained with `fit`.

## Example
```python
estimator = tf.estimator.Estimator(model_fn=model_fn, model_dir=model_dir)
estimator.train(input_fn=train_input_fn, max_steps=1000)
```

## Use instead
```python
model = build_model()                      # modern/model.py
model.compile(optimizer="sgd", loss=loss)  # modern/training.py
model.fit(dataset, steps_per_epoch=100, epochs=10, callbacks=[StopAtStep(1000)])
```

## References
- https://www.tensorflow.org/guide/migrate/migrating_estimator
- https://www.tensorflow.org/guide/migrate/migrate_tpu_estimator
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM101", name="estimator", effort="redesign", doc=__doc__, modern_equivalent="modern/training.py")

NAMES = frozenset({
    "tensorflow.estimator.Estimator",
    "tensorflow.estimator.tpu.TPUEstimator",
    "tensorflow.contrib.tpu.TPUEstimator",
    "tensorflow.contrib.learn.Estimator",
})


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` is gone in TF 2.16+ (tf.estimator was removed); "
        "build a Keras model and train it with `model.fit` (see modern/model.py, modern/training.py)"
    )
