"""`modern.heads` against the canned estimators' own heads: loss, predictions and eval metrics, bit for bit.

TF1's heads run in a graph and Session (as inside the Estimator); the Keras
twins eagerly, on the same logits, labels and weights.
"""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from modern.heads import Head, PredictionsLayer

pytestmark = pytest.mark.estimator

rng = np.random.default_rng(11)
BATCH = 6
WEIGHTS = np.array([[1.0], [0.5], [2.0], [0.0], [1.5], [1.0]], np.float32)
VOCABULARY = ("cat", "dog", "eel")

CASES = {
    # id: (v1 or v2, Head, labels, needs weights)
    "binary_v1_sum": ("v1", Head("binary", loss_reduction="sum", api="v1"), np.array([[0], [1], [1], [0], [1], [0]])),
    "binary_v2_mean_weighted": ("v2", Head("binary", weight_column="w"), np.array([[0], [1], [1], [0], [1], [0]])),
    "multi_class_v1_sum_vocabulary_weighted": (
        "v1", Head("multi_class", n_classes=3, loss_reduction="sum", weight_column="w", label_vocabulary=VOCABULARY,
             api="v1"),
        np.array([["dog"], ["cat"], ["eel"], ["eel"], ["cat"], ["dog"]])),
    "multi_class_v2_mean": ("v2", Head("multi_class", n_classes=3), np.array([[2], [0], [1], [1], [0], [2]])),
    "regression_v1_sum_two_labels": ("v1", Head("regression", label_dimension=2, loss_reduction="sum", api="v1"),
                                     rng.normal(size=(BATCH, 2)).astype(np.float32)),
    "regression_v2_mean_weighted": ("v2", Head("regression", weight_column="w"),
                                    rng.normal(size=(BATCH, 1)).astype(np.float32)),
    "multi_label_v2_mean": ("v2", Head("multi_label", n_classes=3),
                            np.array([[1, 0, 1], [0, 0, 0], [1, 1, 1], [0, 1, 0], [1, 0, 0], [0, 0, 1]])),
}


def tf1_head(version: str, head: Head):
    from tensorflow_estimator.python.estimator.canned import head as head_v1
    from tensorflow_estimator.python.estimator.head import (
        binary_class_head,
        multi_class_head,
        multi_label_head,
        regression_head,
    )

    reduction = {"sum": tf.compat.v1.losses.Reduction.SUM,
                 "sum_over_batch_size": tf.compat.v1.losses.Reduction.SUM_OVER_BATCH_SIZE}[head.loss_reduction]
    vocabulary = list(head.label_vocabulary) if head.label_vocabulary else None
    if version == "v1":
        if head.kind == "regression":
            return head_v1._regression_head(weight_column=head.weight_column, label_dimension=head.label_dimension,
                                            loss_reduction=reduction)
        return head_v1._binary_logistic_or_multi_class_head(head.n_classes, head.weight_column, vocabulary, reduction)
    reduction = tf.keras.losses.Reduction.SUM_OVER_BATCH_SIZE if head.loss_reduction != "sum" else "sum"
    if head.kind == "binary":
        return binary_class_head.BinaryClassHead(head.weight_column, loss_reduction=reduction)
    if head.kind == "multi_class":
        return multi_class_head.MultiClassHead(head.n_classes, head.weight_column, loss_reduction=reduction)
    if head.kind == "multi_label":
        return multi_label_head.MultiLabelHead(head.n_classes, head.weight_column, loss_reduction=reduction)
    return regression_head.RegressionHead(head.label_dimension, head.weight_column, loss_reduction=reduction)


@pytest.fixture(scope="module")
def tf1_results():
    """Per case: training loss, predictions and eval metric values from TF1's head, one graph."""
    results, fetches = {}, {}
    graph = tf.Graph()
    with graph.as_default():
        for case, (version, head, labels) in CASES.items():
            logits = tf.constant(np.random.default_rng(len(case)).normal(size=(BATCH, head.logits_dimension)),
                                 tf.float32)
            features = {"w": tf.constant(WEIGHTS)}
            tf1 = tf1_head(version, head)
            with tf.compat.v1.variable_scope(case):
                spec = tf1.create_estimator_spec(features=features, mode="eval", logits=logits,
                                                 labels=tf.constant(labels))
                predictions = tf1.create_estimator_spec(features=features, mode="infer", logits=logits).predictions
            fetches[case] = {"logits": logits, "loss": spec.loss, "predictions": predictions,
                             "updates": {k: v[1] for k, v in spec.eval_metric_ops.items()},
                             "metrics": {k: v[0] for k, v in spec.eval_metric_ops.items()}}
        with tf.compat.v1.Session(graph=graph) as session:
            session.run([tf.compat.v1.local_variables_initializer(), tf.compat.v1.tables_initializer()])
            for case, fetch in fetches.items():
                session.run(fetch["updates"])
                results[case] = session.run({k: v for k, v in fetch.items() if k != "updates"})
    return results


@pytest.mark.parametrize("case", list(CASES))
def test_loss_is_bit_identical(case, tf1_results):
    _, head, labels = CASES[case]
    expected = tf1_results[case]
    weights = WEIGHTS[:, 0] if head.weight_column else None
    actual = head.loss()(head.encode_labels(tf.constant(labels)), expected["logits"], sample_weight=weights)
    assert np.float32(actual) == expected["loss"], f"{float(actual)!r} vs {float(expected['loss'])!r}"


@pytest.mark.parametrize("case", list(CASES))
def test_predictions_are_bit_identical(case, tf1_results):
    _, head, _ = CASES[case]
    expected = tf1_results[case]["predictions"]
    actual = PredictionsLayer(head)(tf.constant(tf1_results[case]["logits"]))
    for key, value in actual.items():
        np.testing.assert_array_equal(np.asarray(value), expected[key], err_msg=key)


@pytest.mark.parametrize("case", list(CASES))
def test_eval_metrics_have_the_same_values(case, tf1_results):
    _, head, labels = CASES[case]
    expected = tf1_results[case]["metrics"]
    weights = WEIGHTS[:, 0] if head.weight_column else None
    encoded = head.encode_labels(tf.constant(labels))
    compared = []
    for metric in head.metrics():
        tf1_name = metric.name.replace("_mean", "/mean")
        if tf1_name not in expected:
            continue
        metric.update_state(encoded, tf1_results[case]["logits"], sample_weight=weights)
        assert np.float32(metric.result()) == np.float32(expected[tf1_name]), (
            f"{metric.name}: {float(metric.result())!r} vs {float(expected[tf1_name])!r}")
        compared.append(metric.name)
    assert compared, "at least one metric compared"
    not_twinned = set(expected) - {name.replace("_mean", "/mean") for name in compared}
    assert not_twinned <= {"accuracy_baseline", "auc_precision_recall"}, not_twinned
