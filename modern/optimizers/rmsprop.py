"""`RMSProp`: `tf.compat.v1.train.RMSPropOptimizer` as a Keras optimizer, bit for bit.

Replaces ``tf.compat.v1.train.RMSPropOptimizer(learning_rate, decay=0.9,
momentum=0.0, epsilon=1e-10, use_locking=False, centered=False,
name="RMSProp")``. Each step runs TF1's kernel ``ResourceApplyRMSProp``
(``ResourceApplyCenteredRMSProp`` when centered)::

    rms += (g * g - rms) * (1 - decay)
    mg  += (g - mg) * (1 - decay)                      # centered only
    mom  = mom * momentum + lr * g * rsqrt(rms [- mg * mg] + epsilon)
    var -= mom

Differences from `keras.optimizers.RMSprop(lr, rho=decay, momentum=…,
epsilon=…, centered=…)`:

* the mean-square slot starts at **1.0** in TF1 and at 0.0 in Keras, so
  Keras' first steps are about ``sqrt(1 / (1 - decay))`` ≈ 3.2 times larger
  (decay 0.9) — the biggest difference of any optimizer here;
* epsilon: TF1 1e-10, Keras 1e-7 by default (both inside the square root);
* Keras composes the update from separate ops (Keras 3 divides by `sqrt`,
  Keras 2.15 multiplies by `rsqrt`).
Measured drift: "Exact or native optimizer?" in docs/guide/continuing.md.

Slots, in TF1's creation order: ``rms`` (TF1 ``<var>/RMSProp``, ones),
``mg`` (centered only, ``<var>/RMSProp_1``, zeros), ``momentum``
(``<var>/RMSProp_1``, or ``_2`` when centered, zeros). TF1 creates the
momentum slot even with momentum 0, and so does this class.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.optimizers.base import Slot, TF1ExactOptimizer, handle_of, hyper


class RMSProp(TF1ExactOptimizer):
    """RMSProp (plain, with momentum, or centered) with TF1's slots and kernels.

    Args:
        learning_rate: float, Keras `LearningRateSchedule` or callable.
        decay: discount of the mean square (Keras calls it `rho`), default 0.9.
        momentum: default 0.0.
        epsilon: inside the square root, default 1e-10.
        use_locking: passed to the kernel, as in TF1.
        centered: subtract the squared mean gradient (TF1's centered RMSProp).
        name: TF1's default "RMSProp" (the slots' name prefix).

    Example:
        model.compile(optimizer=RMSProp(1e-3, momentum=0.9, centered=True))
    """

    TF1_CLASS = "tf.compat.v1.train.RMSPropOptimizer"

    def __init__(
        self,
        learning_rate: Any,
        decay: float = 0.9,
        momentum: float = 0.0,
        epsilon: float = 1e-10,
        use_locking: bool = False,
        centered: bool = False,
        name: str = "RMSProp",
        **kwargs: Any,
    ) -> None:
        super().__init__(learning_rate, name, use_locking, **kwargs)
        self.decay = decay
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = bool(centered)

    def slots(self) -> tuple[Slot, ...]:
        if self.centered:
            return (Slot("rms", 1.0, 0), Slot("mg", 0.0, 1), Slot("momentum", 0.0, 2))
        return (Slot("rms", 1.0, 0), Slot("momentum", 0.0, 1))

    def apply_dense(self, gradient: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        dtype = gradient.dtype
        common = dict(
            var=handle_of(variable),
            ms=handle_of(self.slot(variable, "rms")),
            mom=handle_of(self.slot(variable, "momentum")),
            lr=learning_rate,
            rho=hyper(self.decay, dtype),
            momentum=hyper(self.momentum, dtype),
            epsilon=hyper(self.epsilon, dtype),
            grad=gradient,
            use_locking=self.use_locking,
        )
        if self.centered:
            return tf.raw_ops.ResourceApplyCenteredRMSProp(mg=handle_of(self.slot(variable, "mg")), **common)
        return tf.raw_ops.ResourceApplyRMSProp(**common)

    def apply_sparse(self, values: tf.Tensor, indices: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        dtype = values.dtype
        common = dict(
            var=handle_of(variable),
            ms=handle_of(self.slot(variable, "rms")),
            mom=handle_of(self.slot(variable, "momentum")),
            lr=learning_rate,
            rho=hyper(self.decay, dtype),
            momentum=hyper(self.momentum, dtype),
            epsilon=hyper(self.epsilon, dtype),
            grad=values,
            indices=indices,
            use_locking=self.use_locking,
        )
        if self.centered:
            return tf.raw_ops.ResourceSparseApplyCenteredRMSProp(mg=handle_of(self.slot(variable, "mg")), **common)
        return tf.raw_ops.ResourceSparseApplyRMSProp(**common)

    def hyperparameters(self) -> dict[str, Any]:
        return {"decay": self.decay, "momentum": self.momentum, "epsilon": self.epsilon, "centered": self.centered}
