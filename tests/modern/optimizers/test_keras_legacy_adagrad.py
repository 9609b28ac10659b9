"""`KerasLegacyAdagrad` against Keras 2's legacy Adagrad (the v2 canned estimators' default), dense and sparse."""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from modern.optimizers import KerasLegacyAdagrad
from modern.optimizers.base import KERAS_3

pytestmark = pytest.mark.skipif(KERAS_3, reason="the reference, Keras 2's legacy optimizers, exists only in Keras 2.15")


def _run(optimizer, variables, steps=5):
    rng = np.random.default_rng(1)
    targets = tf.constant(rng.normal(size=(4, 3)).astype(np.float32))
    ids = tf.constant([2, 0, 2, 4])

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            rows = tf.gather(variables[1], ids)  # sparse gradient with a duplicate row
            loss = tf.reduce_sum(tf.square(tf.tanh(rows @ variables[0]) - targets))
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))

    for _ in range(steps):
        step()
    return [v.numpy() for v in variables]


def test_dense_and_sparse_updates_equal_the_legacy_keras_adagrad_bit_for_bit():
    rng = np.random.default_rng(0)
    initial = [rng.normal(size=(3, 3)).astype(np.float32), rng.normal(size=(5, 3)).astype(np.float32)]
    legacy = _run(tf.keras.optimizers.legacy.Adagrad(0.05, initial_accumulator_value=0.1, epsilon=1e-7),
                  [tf.Variable(value) for value in initial])
    twin = _run(KerasLegacyAdagrad(0.05, initial_accumulator_value=0.1, epsilon=1e-7),
                [tf.Variable(value) for value in initial])
    for expected, actual in zip(legacy, twin):
        np.testing.assert_array_equal(actual, expected)
