"""The named transforms against the real layers: TF1's cells and ops on one side, stock Keras layers on the other.

Each test gives both the same numbers (the Keras side's through the transform) and compares what they compute.
The TF1 RNN cells need TF 2.15 (`estimator` marker); the others run on both lanes (Keras 2 and Keras 3).
"""
from __future__ import annotations

import numpy as np
import pytest

from migrate.core.transforms import REGISTRY, reorder_gates

UNITS, STEPS, FEATURES, BATCH = 8, 5, 6, 4
RNG = np.random.default_rng(7)
INPUTS = RNG.standard_normal((BATCH, STEPS, FEATURES)).astype(np.float32)


def convert(name, tf1_values, keras_layer):
    """The Keras layer's weights (in its own order) from the TF1 values through the named transform."""
    return REGISTRY[name].to_keras(tf1_values, [tuple(w.shape) for w in keras_layer.weights[:REGISTRY[name].targets]])


def tf1_cell_run(make_cell):
    """A TF1 cell unrolled by dynamic_rnn over INPUTS with random weights: (weights, last output)."""
    import tensorflow as tf

    with tf.Graph().as_default():
        cell = make_cell()
        outputs, _ = tf.compat.v1.nn.dynamic_rnn(cell, tf.constant(INPUTS), dtype=tf.float32)
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            for variable in cell.weights:  # biases start at constants: make every gate's bias count
                session.run(variable.assign(RNG.standard_normal(variable.shape).astype(np.float32) * 0.5))
            values, last = session.run([cell.weights, outputs[:, -1]])
    return values, last


def keras_rnn(layer):
    layer.build((None, STEPS, FEATURES))
    return layer


@pytest.mark.estimator
def test_lstm_transforms_give_keras_lstm_the_tf1_lstm_cells_outputs():
    import keras
    import tensorflow as tf

    (kernel, bias), expected = tf1_cell_run(lambda: tf.compat.v1.nn.rnn_cell.LSTMCell(UNITS))
    layer = keras_rnn(keras.layers.LSTM(UNITS))
    layer.set_weights([*convert("lstm_kernel", [kernel], layer), REGISTRY["lstm_bias"].to_keras([bias], [bias.shape])[0]])
    np.testing.assert_allclose(layer(INPUTS).numpy(), expected, rtol=0, atol=2e-6)
    reordered_only = reorder_gates((0, 2, 1, 3)).to_keras([bias], [bias.shape])[0]
    layer.set_weights([*convert("lstm_kernel", [kernel], layer), reordered_only])
    assert np.abs(layer(INPUTS).numpy() - expected).max() > 1e-3  # without the folded forget bias it is another LSTM


@pytest.mark.estimator
def test_gru_transforms_give_keras_gru_reset_after_false_the_tf1_gru_cells_outputs():
    import keras
    import tensorflow as tf

    (gates_kernel, gates_bias, candidate_kernel, candidate_bias), expected = tf1_cell_run(
        lambda: tf.compat.v1.nn.rnn_cell.GRUCell(UNITS))
    layer = keras_rnn(keras.layers.GRU(UNITS, reset_after=False))
    kernels = convert("gru_kernel", [gates_kernel, candidate_kernel], layer)
    (bias,) = REGISTRY["gru_bias"].to_keras([gates_bias, candidate_bias], [tuple(layer.weights[2].shape)])
    layer.set_weights([*kernels, bias])
    np.testing.assert_allclose(layer(INPUTS).numpy(), expected, rtol=0, atol=2e-6)


def test_lstm_kernel_matches_the_lstm_block_cell_op_one_step():
    """`LSTMBlockCell` (contrib, then tf.raw_ops) keeps the same layout as LSTMCell: kernel [x, h] with gates i, ci, f, o."""
    import keras
    import tensorflow as tf

    kernel = RNG.standard_normal((FEATURES + UNITS, 4 * UNITS)).astype(np.float32) * 0.3
    bias = RNG.standard_normal(4 * UNITS).astype(np.float32) * 0.3
    x, h, c = INPUTS[:, 0], RNG.standard_normal((BATCH, UNITS)).astype(np.float32), RNG.standard_normal((BATCH, UNITS)).astype(np.float32)
    zeros = tf.zeros([UNITS])
    result = tf.raw_ops.LSTMBlockCell(x=x, cs_prev=c, h_prev=h, w=kernel, wci=zeros, wcf=zeros, wco=zeros, b=bias,
                                      forget_bias=1.0, cell_clip=-1.0, use_peephole=False)
    cell = keras.layers.LSTMCell(UNITS)
    cell.build((None, FEATURES))
    cell.set_weights([*convert("lstm_kernel", [kernel], cell), REGISTRY["lstm_bias"].to_keras([bias], [bias.shape])[0]])
    keras_h, (_, keras_c) = cell(tf.constant(x), [tf.constant(h), tf.constant(c)])
    np.testing.assert_allclose(np.asarray(keras_h), result.h.numpy(), rtol=0, atol=2e-6)
    np.testing.assert_allclose(np.asarray(keras_c), result.cs.numpy(), rtol=0, atol=2e-6)


def test_mha_transforms_give_keras_multi_head_attention_the_tf1_attention_outputs():
    """BERT's TF1 attention: dense q/k/v (d, d), heads split by reshape, softmax(q·kᵀ/√k), dense output (d, d)."""
    import keras

    heads, head_dim, length = 2, 3, 4
    d = heads * head_dim
    x = RNG.standard_normal((BATCH, length, d)).astype(np.float32)
    w = {name: RNG.standard_normal((d, d)).astype(np.float32) * 0.4 for name in "qkvo"}
    b = {name: RNG.standard_normal(d).astype(np.float32) * 0.4 for name in "qkvo"}

    def split_heads(t):
        return t.reshape(BATCH, length, heads, head_dim).transpose(0, 2, 1, 3)

    q, k, v = (split_heads(x @ w[n] + b[n]) for n in "qkv")
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(head_dim)
    probs = np.exp(scores - scores.max(-1, keepdims=True))
    probs /= probs.sum(-1, keepdims=True)
    context = (probs @ v).transpose(0, 2, 1, 3).reshape(BATCH, length, d)
    expected = context @ w["o"] + b["o"]

    layer = keras.layers.MultiHeadAttention(heads, head_dim)
    layer(x, x)
    shapes = [tuple(weight.shape) for weight in layer.weights]
    converted = []
    for name in "qkv":
        converted += [REGISTRY["mha_qkv_kernel"].to_keras([w[name]], [shapes[len(converted)]])[0],
                      REGISTRY["mha_qkv_bias"].to_keras([b[name]], [shapes[len(converted) + 1]])[0]]
    converted += [REGISTRY["mha_output_kernel"].to_keras([w["o"]], [shapes[6]])[0], b["o"]]
    layer.set_weights(converted)
    np.testing.assert_allclose(np.asarray(layer(x, x)), expected, rtol=0, atol=2e-5)


def test_conv2d_as_conv1d_and_transposed_dense_against_the_tf1_ops():
    import keras
    import tensorflow as tf

    filters = RNG.standard_normal((3, FEATURES, 1, 4)).astype(np.float32)
    expected = tf.nn.conv2d(INPUTS[..., None], filters, strides=1, padding="VALID").numpy()[:, :, 0, :]
    conv = keras.layers.Conv1D(4, 3, use_bias=False)
    conv.build((None, STEPS, FEATURES))
    conv.set_weights(REGISTRY["conv2d_as_conv1d"].to_keras([filters], [tuple(conv.weights[0].shape)]))
    np.testing.assert_allclose(np.asarray(conv(INPUTS)), expected, rtol=0, atol=1e-5)

    classes = RNG.standard_normal((3, FEATURES)).astype(np.float32)  # (classes, d), used with transpose_b=True
    expected = tf.matmul(INPUTS[:, 0], classes, transpose_b=True).numpy()
    dense = keras.layers.Dense(3, use_bias=False)
    dense.build((None, FEATURES))
    dense.set_weights(REGISTRY["transposed_dense"].to_keras([classes], [tuple(dense.weights[0].shape)]))
    np.testing.assert_allclose(np.asarray(dense(INPUTS[:, 0])), expected, rtol=0, atol=1e-5)
