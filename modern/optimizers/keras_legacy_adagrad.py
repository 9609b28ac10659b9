"""`KerasLegacyAdagrad`: Keras 2's legacy ``tf.keras.optimizers.legacy.Adagrad`` (the v2 canned default), bit for bit.

The v2 canned estimators (``tf.estimator.DNNClassifier`` …) train with the
legacy Keras optimizers; their ``'Adagrad'`` runs the kernel
``ResourceApplyAdagradV2`` (``ResourceSparseApplyAdagradV2`` for embedding
rows, duplicates summed first), which adds ``epsilon`` to the root of the
accumulator::

    accum += g * g
    var -= lr * g / (sqrt(accum) + epsilon)

Keras 3's `keras.optimizers.Adagrad` has the same formula composed of
separate ops, which round differently (measured: 2.9e-11 on a bias after
one step). This class calls the kernel with the legacy optimizer's inputs.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.optimizers.adagrad import Adagrad
from modern.optimizers.base import handle_of, hyper


class KerasLegacyAdagrad(Adagrad):
    """Adagrad with epsilon through the legacy Keras kernel (defaults: those of the legacy Keras optimizer).

    Example:
        model.compile(optimizer=KerasLegacyAdagrad(0.001, initial_accumulator_value=0.1, epsilon=1e-7))
    """

    TF1_CLASS = "tf.keras.optimizers.legacy.Adagrad"

    def __init__(self, learning_rate: Any = 0.001, initial_accumulator_value: float = 0.1, epsilon: float = 1e-7,
                 name: str = "Adagrad", **kwargs: Any) -> None:
        super().__init__(learning_rate, initial_accumulator_value, name=name, **kwargs)
        self.epsilon = epsilon

    def apply_dense(self, gradient: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        return tf.raw_ops.ResourceApplyAdagradV2(
            var=handle_of(variable), accum=handle_of(self.slot(variable, "accumulator")), lr=learning_rate,
            epsilon=hyper(self.epsilon, gradient.dtype), grad=gradient, use_locking=self.use_locking)

    def apply_sparse(self, values: tf.Tensor, indices: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        return tf.raw_ops.ResourceSparseApplyAdagradV2(
            var=handle_of(variable), accum=handle_of(self.slot(variable, "accumulator")), lr=learning_rate,
            epsilon=hyper(self.epsilon, values.dtype), grad=values, indices=indices, use_locking=self.use_locking)

    def hyperparameters(self) -> dict[str, Any]:
        return {**super().hyperparameters(), "epsilon": self.epsilon}
