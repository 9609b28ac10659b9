"""Sparse gradients (embedding lookups with repeated ids): every twin updates the table as its TF1 optimizer does.

TF1 sums a repeated row's gradients before its sparse kernel (gradient
descent excepted: it scatter-adds each occurrence), and Adam's sparse update
is a different formula from its dense kernel; the twins follow each path.
The table and every slot must be bit-identical after each of 6 steps. Both
sides run as graphs (TF1 code ran in a Session): Adam's sparse update is a
chain of ops that the graph optimizer rewrites the same way on both sides
(run eagerly, TF1's second moment is 1 ulp away from the graph's).
"""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from tensorflow import keras

from modern.optimizers import Adagrad, Adam, Ftrl, GradientDescent, Momentum, RMSProp
from modern.optimizers.base import KERAS_3

IDS = tf.constant([[3, 1, 3, 7], [1, 1, 0, 3], [7, 2, 3, 3]])
"""Rows 1 and 3 occur several times per batch (row 3 five times); rows 4, 5 never."""
ROWS, WIDTH, STEPS = 6 + 2, 5, 6

TWINS = {
    "gradient descent": (lambda: tf.compat.v1.train.GradientDescentOptimizer(0.3), lambda: GradientDescent(0.3)),
    "adagrad": (lambda: tf.compat.v1.train.AdagradOptimizer(0.3), lambda: Adagrad(0.3)),
    "momentum": (lambda: tf.compat.v1.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
                 lambda: Momentum(0.1, 0.9, use_nesterov=True)),
    "rmsprop": (lambda: tf.compat.v1.train.RMSPropOptimizer(0.05, momentum=0.5), lambda: RMSProp(0.05, momentum=0.5)),
    "centered rmsprop": (lambda: tf.compat.v1.train.RMSPropOptimizer(0.05, centered=True),
                         lambda: RMSProp(0.05, centered=True)),
    "ftrl": (lambda: tf.compat.v1.train.FtrlOptimizer(0.2, l1_regularization_strength=0.01),
             lambda: Ftrl(0.2, l1_regularization_strength=0.01)),
    "ftrl with shrinkage": (lambda: tf.compat.v1.train.FtrlOptimizer(0.2, l2_shrinkage_regularization_strength=0.1),
                            lambda: Ftrl(0.2, l2_shrinkage_regularization_strength=0.1)),
    "adam": (lambda: tf.compat.v1.train.AdamOptimizer(0.01), lambda: Adam(0.01)),
}


def _loss(table) -> tf.Tensor:
    looked_up = tf.nn.embedding_lookup(table, IDS)
    return tf.reduce_sum(tf.square(tf.tanh(looked_up) - 0.5) * tf.range(1.0, 1.0 + WIDTH))


def _values(tf1_optimizer, twin, tf1_table, keras_table) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    pairs = {"table": (tf1_table.numpy(), np.asarray(keras_table))}
    for slot_name in twin.tf1_slot_names("table"):
        tf1_slot = tf1_optimizer.get_slot(tf1_table, slot_name)
        pairs[slot_name] = (tf1_slot.numpy(), np.asarray(twin.slot(keras_table, slot_name)))
    return pairs


@pytest.mark.parametrize("name", list(TWINS))
def test_a_repeated_embedding_row_is_updated_as_tf1_updates_it(name):
    make_tf1, make_twin = TWINS[name]
    initial = np.random.default_rng(3).normal(size=(ROWS, WIDTH)).astype(np.float32)
    tf1_table = tf.Variable(initial, name="table")
    keras_table = keras.Variable(initial, name="table") if KERAS_3 else tf.Variable(initial, name="table")
    tf1_optimizer, twin = make_tf1(), make_twin()

    @tf.function
    def keras_step() -> None:
        with tf.GradientTape() as tape:
            loss = _loss(keras_table)
        gradient = tape.gradient(loss, keras_table)
        assert isinstance(gradient, tf.IndexedSlices)
        twin.apply_gradients([(gradient, keras_table)])

    @tf.function
    def tf1_step() -> None:
        with tf.GradientTape() as tape:
            loss = _loss(tf1_table)
        tf1_optimizer.apply_gradients([(tape.gradient(loss, tf1_table), tf1_table)])

    mismatches = []
    for step in range(1, STEPS + 1):
        tf1_step()
        keras_step()
        for what, (tf1_value, keras_value) in _values(tf1_optimizer, twin, tf1_table, keras_table).items():
            if not np.array_equal(tf1_value, keras_value):
                mismatches.append((step, what, float(np.abs(tf1_value - keras_value).max())))
    assert mismatches == []
    assert not np.array_equal(tf1_table.numpy()[[1, 3]], initial[[1, 3]]), "the looked-up rows must have moved"


def test_keras_own_sgd_sums_repeated_rows_first_and_so_differs_from_tf1():
    """Why the gradient-descent twin has a sparse path: Keras 2.15's SGD is 1 ulp off on a repeated row."""
    if KERAS_3:
        pytest.skip("documents Keras 2.15's SGD, which sums repeated rows before update_step")
    initial = np.random.default_rng(3).normal(size=(ROWS, WIDTH)).astype(np.float32)
    tf1_table, keras_table = tf.Variable(initial), tf.Variable(initial)
    tf1_optimizer, native = tf.compat.v1.train.GradientDescentOptimizer(0.3), keras.optimizers.SGD(0.3)
    differs = False
    for _ in range(STEPS):
        for table, apply in ((tf1_table, tf1_optimizer.apply_gradients), (keras_table, native.apply_gradients)):
            with tf.GradientTape() as tape:
                loss = _loss(table)
            apply([(tape.gradient(loss, table), table)])
        differs = differs or not np.array_equal(tf1_table.numpy(), keras_table.numpy())
    assert differs
