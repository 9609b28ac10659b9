"""`tf1_lstm_to_keras_lstm`: TF1 LSTMCell weights → a stock keras.layers.LSTM computing the same function."""
from __future__ import annotations

import numpy as np
import pytest

from tests.examples.helpers import load_pair

pytestmark = pytest.mark.estimator

UNITS, STEPS, FEATURES, BATCH = 8, 5, 6, 4


@pytest.fixture(scope="module")
def tf1_lstm():
    """A TF1 LSTMCell unrolled by dynamic_rnn: its weights, an input batch and the last hidden state."""
    import tensorflow as tf

    rng = np.random.default_rng(7)
    inputs = rng.standard_normal((BATCH, STEPS, FEATURES)).astype(np.float32)
    with tf.Graph().as_default():
        cell = tf.compat.v1.nn.rnn_cell.LSTMCell(UNITS, name="lstm_cell")
        _, state = tf.compat.v1.nn.dynamic_rnn(cell, tf.constant(inputs), dtype=tf.float32)
        kernel, bias = cell.weights
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            session.run(bias.assign(rng.standard_normal(4 * UNITS).astype(np.float32)))
            kernel_value, bias_value, last_h = session.run([kernel, bias, state.h])
    return kernel_value, bias_value, inputs, last_h


def _keras_lstm_output(weights, inputs):
    import keras

    layer = keras.layers.LSTM(UNITS)
    layer.build((None, STEPS, FEATURES))
    layer.set_weights(weights)
    return layer(inputs).numpy()


def test_converted_weights_give_a_stock_keras_lstm_the_same_outputs(tf1_lstm):
    pair = load_pair("tf1_idiom")
    kernel, bias, inputs, expected = tf1_lstm
    converted = pair.tf1_lstm_to_keras_lstm(kernel, bias, forget_bias=1.0)
    assert [w.shape for w in converted] == [(FEATURES, 4 * UNITS), (UNITS, 4 * UNITS), (4 * UNITS,)]
    np.testing.assert_allclose(_keras_lstm_output(converted, inputs), expected, rtol=0, atol=1e-6)


def test_without_the_gate_reorder_the_outputs_differ(tf1_lstm):
    kernel, bias, inputs, expected = tf1_lstm
    split_only = [kernel[:FEATURES], kernel[FEATURES:], bias]
    assert np.abs(_keras_lstm_output(split_only, inputs) - expected).max() > 1e-2
