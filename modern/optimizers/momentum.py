"""`Momentum`: `tf.compat.v1.train.MomentumOptimizer` as a Keras optimizer, bit for bit.

Replaces ``tf.compat.v1.train.MomentumOptimizer(learning_rate, momentum,
use_locking=False, name="Momentum", use_nesterov=False)``. Each step runs
TF1's kernel ``ResourceApplyMomentum``::

    accum = accum * momentum + g
    var -= lr * accum                                  # use_nesterov=False
    var -= g * lr + accum * momentum * lr              # use_nesterov=True

Differences from `keras.optimizers.SGD(lr, momentum=…, nesterov=…)`: Keras
keeps a *velocity* that already includes the learning rate
(``v = momentum * v - lr * g; var += v``), TF1 an accumulator of raw
gradients that is multiplied by the learning rate at each step. The two are
equal in exact arithmetic for a constant learning rate (``v = -lr * accum``)
but round differently, and they diverge for real when the learning rate
changes (a schedule): TF1 applies the new rate to the whole accumulated
history. Measured drift: "Exact or native optimizer?" in docs/guide/continuing.md.

Slots: ``momentum`` (TF1 ``<var>/Momentum``), zeros.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.optimizers.base import Slot, TF1ExactOptimizer, handle_of, hyper


class Momentum(TF1ExactOptimizer):
    """Momentum (optionally Nesterov) with TF1's accumulator and kernel.

    Args:
        learning_rate: float, Keras `LearningRateSchedule` or callable.
        momentum: the accumulator's decay (TF1: required).
        use_locking: passed to the kernel, as in TF1.
        name: TF1's default "Momentum" (slot ``<var>/Momentum``).
        use_nesterov: Nesterov momentum, TF1's formulation.

    Example:
        model.compile(optimizer=Momentum(0.01, momentum=0.9))
    """

    TF1_CLASS = "tf.compat.v1.train.MomentumOptimizer"
    SLOTS = (Slot("momentum", 0.0, 0),)

    def __init__(
        self,
        learning_rate: Any,
        momentum: float,
        use_locking: bool = False,
        name: str = "Momentum",
        use_nesterov: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(learning_rate, name, use_locking, **kwargs)
        self.momentum = momentum
        self.use_nesterov = bool(use_nesterov)

    def apply_dense(self, gradient: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        return tf.raw_ops.ResourceApplyMomentum(
            var=handle_of(variable),
            accum=handle_of(self.slot(variable, "momentum")),
            lr=learning_rate,
            grad=gradient,
            momentum=hyper(self.momentum, gradient.dtype),
            use_locking=self.use_locking,
            use_nesterov=self.use_nesterov,
        )

    def apply_sparse(self, values: tf.Tensor, indices: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        return tf.raw_ops.ResourceSparseApplyMomentum(
            var=handle_of(variable),
            accum=handle_of(self.slot(variable, "momentum")),
            lr=learning_rate,
            grad=values,
            indices=indices,
            momentum=hyper(self.momentum, values.dtype),
            use_locking=self.use_locking,
            use_nesterov=self.use_nesterov,
        )

    def hyperparameters(self) -> dict[str, Any]:
        return {"momentum": self.momentum, "use_nesterov": self.use_nesterov}
