"""TF1 streaming metrics: `tf.metrics.accuracy` and friends (value, update_op).

## What it does
Checks for references to the TF1 functions of `tf.metrics` that return a
`(value, update_op)` pair backed by local variables (`accuracy`, `auc`,
`mean`, `precision`, `recall`, …). The TF2 metric classes are not flagged.

## Why is this bad?
TF1 metrics keep their state in `LOCAL_VARIABLES`, need
`local_variables_initializer`, and are evaluated by running `update_op` per
batch then `value`. Keras metrics are objects: pass them to `compile`
(`metrics=[...]`) and read the results from `evaluate(return_dict=True)`.

## Example
```python
accuracy = tf.metrics.accuracy(labels, predictions)
return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"accuracy": accuracy})
```

## Use instead
```python
model.compile(..., metrics=[keras.metrics.SparseCategoricalAccuracy(name="accuracy")])
```

## References
- https://www.tensorflow.org/guide/migrate/metrics_optimizers
- https://keras.io/api/metrics/
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM509", name="tf-metrics", effort="rewrite", doc=__doc__, modern_equivalent="modern/training.py")

V1_METRICS = frozenset({
    "accuracy", "auc", "average_precision_at_k", "false_negatives", "false_negatives_at_thresholds",
    "false_positives", "false_positives_at_thresholds", "mean", "mean_absolute_error", "mean_cosine_distance",
    "mean_iou", "mean_per_class_accuracy", "mean_relative_error", "mean_squared_error", "mean_tensor",
    "percentage_below", "precision", "precision_at_k", "precision_at_thresholds", "precision_at_top_k",
    "recall", "recall_at_k", "recall_at_thresholds", "recall_at_top_k", "root_mean_squared_error",
    "sensitivity_at_specificity", "sparse_average_precision_at_k", "sparse_precision_at_k",
    "specificity_at_sensitivity", "true_negatives", "true_negatives_at_thresholds", "true_positives",
    "true_positives_at_thresholds",
})


@register(RULE, *(f"tensorflow.metrics.{name}" for name in sorted(V1_METRICS)))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` is a TF1 streaming metric (value, update_op in local variables), removed in TF2; "
        "pass a `keras.metrics` object to `model.compile(metrics=...)`"
    )
