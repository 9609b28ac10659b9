"""Canned estimators: `DNNClassifier`, `LinearRegressor`, `BoostedTrees*`, ….

## What it does
Checks for references to the premade estimators of `tf.estimator`
(`DNNClassifier`, `DNNRegressor`, `LinearClassifier`, `LinearRegressor`,
`DNNLinearCombined*`, `BaselineClassifier`, `BoostedTreesClassifier`, …).

## Why is this bad?
They are Estimators with a built-in `model_fn` and feature columns, removed
with `tf.estimator` in TF 2.16. The network is usually a few Keras layers;
feature columns become Keras preprocessing layers. Boosted trees have no Keras
counterpart (TensorFlow Decision Forests is the suggested replacement).

## Example
```python
classifier = tf.estimator.DNNClassifier(hidden_units=[128, 64], feature_columns=columns, n_classes=10)
```

## Use instead
```python
model = keras.Sequential([keras.layers.Dense(128, "relu"), keras.layers.Dense(64, "relu"), keras.layers.Dense(10)])
```

## References
- https://www.tensorflow.org/guide/migrate/canned_estimators
- https://www.tensorflow.org/guide/migrate/migrating_feature_columns
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM106", name="canned-estimator", effort="redesign", doc=__doc__, modern_equivalent="modern/model.py")

CANNED = (
    "DNNClassifier", "DNNRegressor", "DNNEstimator",
    "LinearClassifier", "LinearRegressor", "LinearEstimator",
    "DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor", "DNNLinearCombinedEstimator",
    "BaselineClassifier", "BaselineRegressor", "BaselineEstimator",
    "BoostedTreesClassifier", "BoostedTreesRegressor", "BoostedTreesEstimator",
)
NAMES = frozenset(f"tensorflow.estimator.{name}" for name in CANNED) | frozenset(
    f"tensorflow.contrib.learn.{name}" for name in CANNED
)


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` is a premade Estimator removed in TF 2.16; rebuild the network as Keras layers "
        "(feature columns → preprocessing layers) and train with fit (see modern/model.py)"
    )
