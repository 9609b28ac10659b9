"""`Ftrl`: `tf.compat.v1.train.FtrlOptimizer` as a Keras optimizer, bit for bit.

Replaces ``tf.compat.v1.train.FtrlOptimizer(learning_rate,
learning_rate_power=-0.5, initial_accumulator_value=0.1,
l1_regularization_strength=0.0, l2_regularization_strength=0.0,
use_locking=False, name="Ftrl", accum_name=None, linear_name=None,
l2_shrinkage_regularization_strength=0.0, beta=None)`` — the default
optimizer of TF1's canned linear estimators. Each step runs TF1's kernel
``ResourceApplyFtrl`` (``ResourceApplyFtrlV2`` when l2 shrinkage > 0) with
TF1's adjusted L2 strength ``l2 + beta / (2 * max(lr, 1e-36))`` (the sparse
kernels ``ResourceSparseApplyFtrl``/``V2`` on the rows of a sparse gradient)::

    accum_new = accum + g * g
    linear += g - (accum_new ** -lr_power - accum ** -lr_power) / lr * var
    quadratic = accum_new ** -lr_power / lr + 2 * l2
    var = (sign(linear) * l1 - linear) / quadratic if |linear| > l1 else 0
    accum = accum_new

Differences from `keras.optimizers.Ftrl`: the same formula and defaults
(accumulator 0.1, power -0.5), but Keras composes it from separate ops,
which round differently, and Keras folds `beta` into the quadratic term
itself rather than through TF1's adjusted L2 tensor. Measured drift: "Exact
or native optimizer?" in docs/guide/continuing.md.

Slots: ``accum`` (TF1 ``<var>/Ftrl``, filled with
`initial_accumulator_value`) and ``linear`` (``<var>/Ftrl_1``, zeros); with
TF1's `accum_name`/`linear_name` the slots are named ``<var>/<accum_name>``
and ``<var>/<linear_name>``.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.optimizers.base import Slot, TF1ExactOptimizer, handle_of, hyper


class Ftrl(TF1ExactOptimizer):
    """FTRL-Proximal with TF1's kernels, argument checks and adjusted L2 strength.

    Args: those of `tf.compat.v1.train.FtrlOptimizer`, same names and defaults
    (see the module docstring); learning_rate may also be a Keras schedule.

    Example:
        model.compile(optimizer=Ftrl(0.1, l1_regularization_strength=0.001))
    """

    TF1_CLASS = "tf.compat.v1.train.FtrlOptimizer"

    def __init__(
        self,
        learning_rate: Any,
        learning_rate_power: float = -0.5,
        initial_accumulator_value: float = 0.1,
        l1_regularization_strength: float = 0.0,
        l2_regularization_strength: float = 0.0,
        use_locking: bool = False,
        name: str = "Ftrl",
        accum_name: str | None = None,
        linear_name: str | None = None,
        l2_shrinkage_regularization_strength: float = 0.0,
        beta: float | None = None,
        **kwargs: Any,
    ) -> None:
        checks = {
            "initial_accumulator_value": (initial_accumulator_value, initial_accumulator_value >= 0.0, "positive or zero"),
            "learning_rate_power": (learning_rate_power, learning_rate_power <= 0.0, "negative or zero"),
            "l1_regularization_strength": (l1_regularization_strength, l1_regularization_strength >= 0.0, "positive or zero"),
            "l2_regularization_strength": (l2_regularization_strength, l2_regularization_strength >= 0.0, "positive or zero"),
            "l2_shrinkage_regularization_strength": (
                l2_shrinkage_regularization_strength, l2_shrinkage_regularization_strength >= 0.0, "positive or zero"
            ),
        }
        for argument, (value, valid, expected) in checks.items():
            if not valid:
                raise ValueError(f"Ftrl: {argument} must be {expected}, as in TF1; got {value}.")
        super().__init__(learning_rate, name, use_locking, **kwargs)
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.accum_name = accum_name
        self.linear_name = linear_name
        self.beta = 0.0 if beta is None else beta

    def slots(self) -> tuple[Slot, ...]:
        return (Slot("accum", float(self.initial_accumulator_value), 0), Slot("linear", 0.0, 1))

    def tf1_slot_names(self, tf1_variable_name: str) -> dict[str, str]:
        if self.accum_name is None and self.linear_name is None:
            return super().tf1_slot_names(tf1_variable_name)
        accum = self.accum_name or self.tf1_name
        linear = self.linear_name or self.tf1_name
        return {
            "accum": f"{tf1_variable_name}/{accum}",
            "linear": f"{tf1_variable_name}/{linear}" + ("_1" if linear == accum else ""),
        }

    def _adjusted_l2(self, learning_rate: tf.Tensor, dtype: tf.DType) -> tf.Tensor:
        """TF1's ``l2 + beta / (2 * max(lr, 1e-36))``, computed in float32 like its `_prepare`."""
        lr32 = tf.cast(learning_rate, tf.float32)
        adjusted = self.l2_regularization_strength + self.beta / (2.0 * tf.maximum(lr32, 1e-36))
        return tf.cast(adjusted, dtype)

    def apply_dense(self, gradient: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        dtype = gradient.dtype
        common = dict(
            var=handle_of(variable),
            accum=handle_of(self.slot(variable, "accum")),
            linear=handle_of(self.slot(variable, "linear")),
            grad=gradient,
            lr=learning_rate,
            l1=hyper(self.l1_regularization_strength, dtype),
            l2=self._adjusted_l2(learning_rate, dtype),
            lr_power=hyper(self.learning_rate_power, dtype),
            use_locking=self.use_locking,
        )
        if self.l2_shrinkage_regularization_strength <= 0.0:
            return tf.raw_ops.ResourceApplyFtrl(**common)
        return tf.raw_ops.ResourceApplyFtrlV2(l2_shrinkage=hyper(self.l2_shrinkage_regularization_strength, dtype), **common)

    def apply_sparse(self, values: tf.Tensor, indices: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        dtype = values.dtype
        common = dict(
            var=handle_of(variable),
            accum=handle_of(self.slot(variable, "accum")),
            linear=handle_of(self.slot(variable, "linear")),
            grad=values,
            indices=indices,
            lr=learning_rate,
            l1=hyper(self.l1_regularization_strength, dtype),
            l2=self._adjusted_l2(learning_rate, dtype),
            lr_power=hyper(self.learning_rate_power, dtype),
            use_locking=self.use_locking,
        )
        if self.l2_shrinkage_regularization_strength <= 0.0:
            return tf.raw_ops.ResourceSparseApplyFtrl(**common)
        return tf.raw_ops.ResourceSparseApplyFtrlV2(
            l2_shrinkage=hyper(self.l2_shrinkage_regularization_strength, dtype), **common)

    def hyperparameters(self) -> dict[str, Any]:
        return {
            "learning_rate_power": self.learning_rate_power,
            "initial_accumulator_value": self.initial_accumulator_value,
            "l1_regularization_strength": self.l1_regularization_strength,
            "l2_regularization_strength": self.l2_regularization_strength,
            "l2_shrinkage_regularization_strength": self.l2_shrinkage_regularization_strength,
            "accum_name": self.accum_name,
            "linear_name": self.linear_name,
            "beta": self.beta,
        }
