"""`Adagrad`: `tf.compat.v1.train.AdagradOptimizer` as a Keras optimizer, bit for bit.

Replaces ``tf.compat.v1.train.AdagradOptimizer(learning_rate,
initial_accumulator_value=0.1, use_locking=False, name="Adagrad")``. Each
step runs TF1's kernel ``ResourceApplyAdagrad`` (``ResourceSparseApplyAdagrad``
on the rows of a sparse gradient)::

    accum += g * g
    var -= lr * g * rsqrt(accum)

Differences from `keras.optimizers.Adagrad`: Keras adds an epsilon (1e-7 by
default) inside the square root and divides (``lr * g / sqrt(accum +
epsilon)``); TF1 has no epsilon and multiplies by ``rsqrt``. Both start the
accumulator at 0.1. Measured drift: "Exact or native optimizer?" in docs/guide/continuing.md.

Slots: ``accumulator`` (TF1 ``<var>/Adagrad``), filled with
`initial_accumulator_value`.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.optimizers.base import Slot, TF1ExactOptimizer, handle_of


class Adagrad(TF1ExactOptimizer):
    """Adagrad with TF1's kernel (no epsilon).

    Args:
        learning_rate: float, Keras `LearningRateSchedule` or callable.
        initial_accumulator_value: must be positive, as in TF1 (default 0.1).
        use_locking: passed to the kernel, as in TF1.
        name: TF1's default "Adagrad" (slot ``<var>/Adagrad``).

    Example:
        model.compile(optimizer=Adagrad(0.1))
    """

    TF1_CLASS = "tf.compat.v1.train.AdagradOptimizer"

    def __init__(
        self,
        learning_rate: Any,
        initial_accumulator_value: float = 0.1,
        use_locking: bool = False,
        name: str = "Adagrad",
        **kwargs: Any,
    ) -> None:
        if initial_accumulator_value <= 0.0:
            raise ValueError(
                f"Adagrad: initial_accumulator_value must be positive (TF1 rejects it too); got {initial_accumulator_value}."
            )
        super().__init__(learning_rate, name, use_locking, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value

    def slots(self) -> tuple[Slot, ...]:
        return (Slot("accumulator", float(self.initial_accumulator_value), 0),)

    def apply_dense(self, gradient: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        return tf.raw_ops.ResourceApplyAdagrad(
            var=handle_of(variable),
            accum=handle_of(self.slot(variable, "accumulator")),
            lr=learning_rate,
            grad=gradient,
            use_locking=self.use_locking,
        )

    def apply_sparse(self, values: tf.Tensor, indices: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        return tf.raw_ops.ResourceSparseApplyAdagrad(
            var=handle_of(variable),
            accum=handle_of(self.slot(variable, "accumulator")),
            lr=learning_rate,
            grad=values,
            indices=indices,
            use_locking=self.use_locking,
        )

    def hyperparameters(self) -> dict[str, Any]:
        return {"initial_accumulator_value": self.initial_accumulator_value}
