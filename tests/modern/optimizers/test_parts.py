"""`Parts`: each variable trained by its part's optimizer exactly as alone; a None part left untouched."""
from __future__ import annotations

import numpy as np
import tensorflow as tf

from modern.optimizers import Adagrad, Ftrl, Parts
from modern.optimizers.base import KERAS_3


def _variable(value, name):
    import keras

    return keras.Variable(value, name=name) if KERAS_3 else tf.Variable(value, name=name)


def _train(apply, variables, steps=4):
    """`steps` steps; `apply(gradients, variables)` updates (the same gradients for every scheme)."""
    x = tf.constant(np.random.default_rng(2).normal(size=(5, 3)).astype(np.float32))

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.tanh(x @ variables[0]) @ variables[1] + tf.reduce_sum(variables[2]))
        apply(tape.gradient(loss, variables), variables)

    for _ in range(steps):
        step()
    return [np.asarray(v) for v in variables]


def test_each_part_trains_as_its_own_optimizer_and_a_none_part_is_frozen():
    """TF1's canned wide & deep: two optimizers, each on its own variables, in one step; here one `Parts`."""
    rng = np.random.default_rng(0)
    initial = [rng.normal(size=(3, 4)).astype(np.float32), rng.normal(size=(4, 2)).astype(np.float32),
               rng.normal(size=(2,)).astype(np.float32)]
    names = ["linear_w", "dnn_w", "frozen_b"]
    parts = Parts({"frozen": None, "linear": Ftrl(0.1), "": Adagrad(0.05)})
    together = _train(lambda grads, variables: parts.apply_gradients(zip(grads, variables)),
                      [_variable(v, n) for v, n in zip(initial, names)])

    linear, dnn = Ftrl(0.1), Adagrad(0.05)

    def separately(grads, variables):
        linear.apply_gradients([(grads[0], variables[0])])
        dnn.apply_gradients([(grads[1], variables[1])])

    expected = _train(separately, [_variable(v, n) for v, n in zip(initial, names)])
    np.testing.assert_array_equal(together[0], expected[0])
    np.testing.assert_array_equal(together[1], expected[1])
    np.testing.assert_array_equal(together[2], initial[2])
