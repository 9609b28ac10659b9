"""Run a TF1 optimizer and its Keras twin side by side on the same graph-free problem.

The problem: a two-layer tanh regression (kernels, biases) on fixed random
data, small enough that 12 steps take milliseconds but with curvature, so
any difference in rounding shows up in the variables and slots. The TF1
optimizer runs eagerly on `tf.Variable`s (TF1 optimizers support eager
execution); the Keras optimizer runs inside a `tf.function`, as in `fit`,
on Keras variables (Keras 3) or `tf.Variable`s (Keras 2.15).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow import keras

from modern.optimizers.base import KERAS_3

SHAPES = {"hidden/kernel": (6, 8), "hidden/bias": (8,), "out/kernel": (8, 3), "out/bias": (3,)}


def _problem(seed: int = 0) -> tuple[tf.Tensor, tf.Tensor, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    inputs = tf.constant(rng.normal(size=(64, 6)).astype(np.float32))
    targets = tf.constant(rng.normal(size=(64, 3)).astype(np.float32))
    initial = {name: (rng.normal(size=shape) * 0.5).astype(np.float32) for name, shape in SHAPES.items()}
    return inputs, targets, initial


def _loss(inputs: tf.Tensor, targets: tf.Tensor, variables: list[Any]) -> tf.Tensor:
    hidden_kernel, hidden_bias, out_kernel, out_bias = variables
    hidden = tf.tanh(tf.matmul(inputs, hidden_kernel) + hidden_bias)
    return tf.reduce_mean(tf.square(tf.matmul(hidden, out_kernel) + out_bias - targets))


def _keras_variable(value: np.ndarray, name: str) -> Any:
    return keras.Variable(value, name=name) if KERAS_3 else tf.Variable(value, name=name)


@dataclass
class Twins:
    """Both sides after the run, and the first (step, name) whose values differed."""

    tf1_variables: list[tf.Variable]
    keras_variables: list[Any]
    tf1_optimizer: Any
    keras_optimizer: Any
    mismatches: list[tuple[int, str, float]] = field(default_factory=list)

    def values(self, step: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Every variable, slot and non-slot variable of both sides, by TF1 name (native: variables only)."""
        exact = hasattr(self.keras_optimizer, "tf1_slot_names")
        pairs = {}
        for name, tf1_var, keras_var in zip(SHAPES, self.tf1_variables, self.keras_variables):
            pairs[name] = (tf1_var.numpy(), np.asarray(keras_var))
            for slot_name in self.keras_optimizer.tf1_slot_names(name) if exact else ():
                tf1_slot = self.tf1_optimizer.get_slot(tf1_var, slot_name)
                pairs[f"{name}:{slot_name}"] = (tf1_slot.numpy(), np.asarray(self.keras_optimizer.slot(keras_var, slot_name)))
        tf1_non_slots = {v.name.split(":")[0]: v for v in self.tf1_optimizer._non_slot_variables()}
        for name, keras_var in (self.keras_optimizer.non_slot_variables() if exact else {}).items():
            pairs[name] = (tf1_non_slots[name].numpy(), np.asarray(keras_var))
        return pairs


def run_twins(
    make_tf1: Callable[[Callable[[], tf.Tensor] | None], Any],
    keras_optimizer: keras.optimizers.Optimizer,
    steps: int = 12,
    tf1_learning_rate: Callable[[tf.Variable], Callable[[], tf.Tensor]] | None = None,
) -> Twins:
    """`steps` updates on both sides, comparing every value after the first and the last.

    `make_tf1(lr)` builds the TF1 optimizer; `lr` is None, or (with
    `tf1_learning_rate`) a callable of TF1's global step mirroring the Keras
    side's learning-rate schedule.
    """
    inputs, targets, initial = _problem()
    tf1_variables = [tf.Variable(value, name=name) for name, value in initial.items()]
    keras_variables = [_keras_variable(value, name.replace("/", "_")) for name, value in initial.items()]
    global_step = tf.Variable(0, dtype=tf.int64)
    tf1_optimizer = make_tf1(tf1_learning_rate(global_step) if tf1_learning_rate else None)

    @tf.function
    def keras_step() -> None:
        with tf.GradientTape() as tape:
            loss = _loss(inputs, targets, keras_variables)
        keras_optimizer.apply_gradients(zip(tape.gradient(loss, keras_variables), keras_variables))

    twins = Twins(tf1_variables, keras_variables, tf1_optimizer, keras_optimizer)
    for step in range(1, steps + 1):
        with tf.GradientTape() as tape:
            loss = _loss(inputs, targets, tf1_variables)
        tf1_optimizer.apply_gradients(zip(tape.gradient(loss, tf1_variables), tf1_variables), global_step=global_step)
        keras_step()
        if step not in (1, steps):
            continue
        for name, (tf1_value, keras_value) in twins.values(step).items():
            if not np.array_equal(tf1_value, keras_value):
                twins.mismatches.append((step, name, float(np.max(np.abs(tf1_value - keras_value)))))
    assert int(keras_optimizer.iterations.numpy()) == int(global_step.numpy()) == steps
    return twins
