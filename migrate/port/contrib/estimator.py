"""`tf.contrib.estimator`: single-tower replication and the v1 heads.

`replicate_model_fn` and `TowerOptimizer` (TF 1.15's replicate_model_fn.py)
split a batch over devices; on one device — what `migrate port` traces and
the parity check trains — TF 1.15 runs the model_fn once (its ops under name
scope ``tower_0``), leaves the loss unscaled and applies the gradients with the
wrapped optimizer, so the twins are the model_fn and the optimizer themselves.
The heads (`binary_classification_head`, `multi_class_head`,
`regression_head`) are, in TF 1.15, the estimator's v1 heads with the loss
averaged over the batch (``SUM_OVER_BATCH_SIZE``): the same functions of
tensorflow_estimator's ``canned/head.py``, which TF 2.15's estimator still has.
"""
from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable
from typing import Any

from migrate.port.contrib.registry import ContribTwin

SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
"""`tf.compat.v1.losses.Reduction.SUM_OVER_BATCH_SIZE`, TF 1.15's default for the contrib heads."""


class _HeadWithoutEstimator:
    """Stands for a head where tf.estimator does not exist (TF 2.16 on): the Keras side of a parity run imports the
    user's module, which may build its head at import, but never calls the model_fn that uses it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, attribute: str) -> Any:
        raise ImportError(f"tf.contrib.estimator.{self.name} is tf.estimator's v1 head, which this TensorFlow lacks: "
                          "run the model_fn on TF 2.15")


def _heads() -> Any:
    from tensorflow_estimator.python.estimator.canned import head

    return head


def _needs_estimator(head_function: Callable[..., Any]) -> Callable[..., Any]:
    """`head_function`, or where tf.estimator does not exist a `_HeadWithoutEstimator` in its place."""
    @functools.wraps(head_function)
    def made(*args, **kwargs):
        if importlib.util.find_spec("tensorflow_estimator") is None:
            return _HeadWithoutEstimator(head_function.__name__)
        return head_function(*args, **kwargs)

    return made


def replicate_model_fn(model_fn, loss_reduction=None, devices=None):
    """One tower: the model_fn itself (several devices have no twin here: the refusal names them)."""
    if devices is not None and len(devices) > 1:
        raise ValueError(f"tf.contrib.estimator.replicate_model_fn over {len(devices)} devices has no TF1-core twin "
                         "that migrate port runs: port the single-device model_fn (tf.distribute replicates in TF 2)")
    return model_fn


def TowerOptimizer(optimizer_or_optimizer_fn):  # noqa: N802 - the contrib spelling
    """One tower: the optimizer it wraps (made by the function when given one)."""
    import tensorflow as tf

    if isinstance(optimizer_or_optimizer_fn, tf.compat.v1.train.Optimizer) or not callable(optimizer_or_optimizer_fn):
        return optimizer_or_optimizer_fn
    return optimizer_or_optimizer_fn()


@_needs_estimator
def binary_classification_head(weight_column=None, thresholds=None, label_vocabulary=None,
                               loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None, name=None):
    return _heads()._binary_logistic_head_with_sigmoid_cross_entropy_loss(  # noqa: SLF001 - TF 1.15 calls the same
        weight_column=weight_column, thresholds=thresholds, label_vocabulary=label_vocabulary,
        loss_reduction=loss_reduction, loss_fn=loss_fn, name=name)


@_needs_estimator
def multi_class_head(n_classes, weight_column=None, label_vocabulary=None, loss_reduction=SUM_OVER_BATCH_SIZE,
                     loss_fn=None, name=None):
    return _heads()._multi_class_head_with_softmax_cross_entropy_loss(  # noqa: SLF001 - TF 1.15 calls the same
        n_classes=n_classes, weight_column=weight_column, label_vocabulary=label_vocabulary,
        loss_reduction=loss_reduction, loss_fn=loss_fn, name=name)


@_needs_estimator
def regression_head(weight_column=None, label_dimension=1, loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None,
                    inverse_link_fn=None, name=None):
    return _heads()._regression_head(  # noqa: SLF001 - TF 1.15 calls the same
        weight_column=weight_column, label_dimension=label_dimension, loss_reduction=loss_reduction,
        loss_fn=loss_fn, inverse_link_fn=inverse_link_fn, name=name)


TWINS = (
    ContribTwin("estimator.replicate_model_fn", lambda: replicate_model_fn,
                "the model_fn itself (one tower: TF 1.15 runs it once, the loss unscaled)"),
    ContribTwin("estimator.TowerOptimizer", lambda: TowerOptimizer,
                "the optimizer it wraps (one tower: TF 1.15 applies the gradients with it)"),
    ContribTwin("estimator.binary_classification_head", lambda: binary_classification_head,
                "tensorflow_estimator's v1 _binary_logistic_head_with_sigmoid_cross_entropy_loss (SUM_OVER_BATCH_SIZE), "
                "the function TF 1.15 calls"),
    ContribTwin("estimator.multi_class_head", lambda: multi_class_head,
                "tensorflow_estimator's v1 _multi_class_head_with_softmax_cross_entropy_loss (SUM_OVER_BATCH_SIZE), "
                "the function TF 1.15 calls"),
    ContribTwin("estimator.regression_head", lambda: regression_head,
                "tensorflow_estimator's v1 _regression_head (SUM_OVER_BATCH_SIZE), the function TF 1.15 calls"),
)
