"""`Adam`: `tf.compat.v1.train.AdamOptimizer` as a Keras optimizer, bit for bit.

Replaces ``tf.compat.v1.train.AdamOptimizer(learning_rate=0.001, beta1=0.9,
beta2=0.999, epsilon=1e-08, use_locking=False, name="Adam")`` with the same
arguments and defaults. Each step runs TF1's fused kernel
``ResourceApplyAdam``::

    alpha = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
    m += (g - m) * (1 - beta1)
    v += (g * g - v) * (1 - beta2)
    var -= m * alpha / (sqrt(v) + epsilon)

then, after every variable, ``beta1_power *= beta1`` and ``beta2_power *=
beta2`` (float32 running products starting at beta1/beta2, TF1's non-slot
variables ``beta1_power``/``beta2_power``). A sparse gradient (embedding
lookup) takes TF1's sparse path instead, which is not the fused kernel but
separate ops with another formula (`apply_sparse`).

Differences from `keras.optimizers.Adam`:

* epsilon: TF1 and this class 1e-8, Keras 1e-7 by default;
* bias correction: Keras computes ``beta ** (iterations + 1)`` with `pow`
  each step, TF1 keeps a running product — the two differ in the last bits
  after a few dozen steps;
* the update: Keras composes it from separate ops, TF1 runs one fused
  kernel; the roundings differ.
Measured drift of Keras' Adam (epsilon 1e-8) against this class: see
"Exact or native optimizer?" in docs/guide/continuing.md (`bench/optimizer_drift.py`).

Slots: ``m`` (TF1 ``<var>/Adam``) and ``v`` (``<var>/Adam_1``), both zeros.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.optimizers.base import Slot, TF1ExactOptimizer, handle_of, hyper


class Adam(TF1ExactOptimizer):
    """Adam with TF1's update, epsilon placement and running bias-correction products.

    Args:
        learning_rate: float, Keras `LearningRateSchedule` or callable; TF1's default 0.001.
        beta1, beta2: decay rates of the moment estimates (TF1's names).
        epsilon: added to sqrt(v) (TF1's placement), default 1e-8.
        use_locking: passed to the kernel, as in TF1.
        name: also TF1's slot name prefix ("Adam": slots ``<var>/Adam``, ``<var>/Adam_1``).

    Example:
        model.compile(optimizer=Adam(1e-3))  # instead of tf.compat.v1.train.AdamOptimizer(1e-3)
    """

    TF1_CLASS = "tf.compat.v1.train.AdamOptimizer"
    SLOTS = (Slot("m", 0.0, 0), Slot("v", 0.0, 1))

    def __init__(
        self,
        learning_rate: Any = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        use_locking: bool = False,
        name: str = "Adam",
        **kwargs: Any,
    ) -> None:
        super().__init__(learning_rate, name, use_locking, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon

    def build_non_slots(self, var_list: Any) -> None:
        self.beta1_power = self.add_scalar("beta1_power", self.beta1)
        self.beta2_power = self.add_scalar("beta2_power", self.beta2)

    def non_slot_variables(self) -> dict[str, Any]:
        return {"beta1_power": self.beta1_power, "beta2_power": self.beta2_power}

    def apply_dense(self, gradient: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        dtype = gradient.dtype
        return tf.raw_ops.ResourceApplyAdam(
            var=handle_of(variable),
            m=handle_of(self.slot(variable, "m")),
            v=handle_of(self.slot(variable, "v")),
            beta1_power=tf.cast(self.beta1_power, dtype),
            beta2_power=tf.cast(self.beta2_power, dtype),
            lr=learning_rate,
            beta1=hyper(self.beta1, dtype),
            beta2=hyper(self.beta2, dtype),
            epsilon=hyper(self.epsilon, dtype),
            grad=gradient,
            use_locking=self.use_locking,
        )

    def apply_sparse(self, values: tf.Tensor, indices: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        """TF1's `_apply_sparse_shared`: not a kernel but ops, decaying every row of m and v, adding to the given rows.

        ``m = m * beta1`` then ``m[rows] += g * (1 - beta1)`` (the same for v
        with ``g * g``), then ``var -= lr_t * m / (sqrt(v) + epsilon)`` over the
        whole variable, with ``lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)``.
        """
        dtype = values.dtype
        beta1, beta2 = hyper(self.beta1, dtype), hyper(self.beta2, dtype)
        beta1_power, beta2_power = tf.cast(self.beta1_power, dtype), tf.cast(self.beta2_power, dtype)
        rate = learning_rate * tf.sqrt(1 - beta2_power) / (1 - beta1_power)
        m, v = self.slot(variable, "m"), self.slot(variable, "v")
        m_scaled = values * (1 - beta1)
        with tf.control_dependencies([m.assign(m * beta1)]):
            m_update = tf.raw_ops.ResourceScatterAdd(resource=handle_of(m), indices=indices, updates=m_scaled)
        v_scaled = (values * values) * (1 - beta2)
        with tf.control_dependencies([v.assign(v * beta2)]):
            v_update = tf.raw_ops.ResourceScatterAdd(resource=handle_of(v), indices=indices, updates=v_scaled)
        with tf.control_dependencies([m_update, v_update]):
            m_t, v_t = tf.convert_to_tensor(m), tf.convert_to_tensor(v)
            return variable.assign_sub(rate * m_t / (tf.sqrt(v_t) + hyper(self.epsilon, dtype)))

    def finish_step(self) -> None:
        """TF1's `_finish`: advance the bias-correction products after all variables."""
        self.beta1_power.assign(self.beta1_power * hyper(self.beta1, tf.float32))
        self.beta2_power.assign(self.beta2_power * hyper(self.beta2, tf.float32))

    def hyperparameters(self) -> dict[str, Any]:
        return {"beta1": self.beta1, "beta2": self.beta2, "epsilon": self.epsilon}
