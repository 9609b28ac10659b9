"""`load_tf1_checkpoint(..., variable_map=...)`: a TF1 LSTMCell checkpoint loads into a stock keras.layers.LSTM, and
`save_tf1_checkpoint` writes it back in TF1's layout.

The checkpoint is written by a plain `tf.compat.v1` graph (an LSTMCell under `dynamic_rnn`, a dense layer) after
two Adam steps, so it holds the model variables, Adam's slots and beta powers. The Keras model is a stock LSTM:
the same mapping `migrate parity` uses (inferred here) converts weights and slots — the bias's slots reordered but
not shifted by the forget bias.
"""
from __future__ import annotations

import numpy as np
import pytest

from migrate.core.transforms import REGISTRY, function
from modern.optimizers.base import variable_index
from modern.tf1_checkpoint import TF1CheckpointError, load_tf1_checkpoint, save_tf1_checkpoint

pytestmark = pytest.mark.estimator  # tf.compat.v1.nn.rnn_cell: TF 2.15

UNITS, STEPS, FEATURES, BATCH, CLASSES = 4, 3, 5, 6, 3


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    import tensorflow as tf

    rng = np.random.default_rng(3)
    inputs = rng.standard_normal((BATCH, STEPS, FEATURES)).astype(np.float32)
    labels = rng.integers(0, CLASSES, BATCH)
    with tf.Graph().as_default() as graph:
        step = tf.compat.v1.train.get_or_create_global_step()
        with tf.compat.v1.variable_scope("model"):
            cell = tf.compat.v1.nn.rnn_cell.LSTMCell(UNITS)
            _, state = tf.compat.v1.nn.dynamic_rnn(cell, tf.constant(inputs), dtype=tf.float32, scope="rnn")
            logits = tf.compat.v1.layers.dense(state.h, CLASSES, name="logits")
        loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, logits)
        train = tf.compat.v1.train.AdamOptimizer(0.1).minimize(loss, global_step=step)
        with tf.compat.v1.Session(graph=graph) as session:
            session.run(tf.compat.v1.global_variables_initializer())
            session.run(train)
            session.run(train)
            prefix = tf.compat.v1.train.Saver().save(session, str(tmp_path_factory.mktemp("lstm") / "model.ckpt"),
                                                     global_step=step)
    return prefix, tf.train.load_checkpoint(prefix)


def keras_model():
    import keras

    inputs = keras.Input((STEPS, FEATURES))
    outputs = keras.layers.Dense(CLASSES, name="logits")(keras.layers.LSTM(UNITS, name="lstm")(inputs))
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(0.1), loss="sparse_categorical_crossentropy")
    return model


def test_a_tf1_lstm_checkpoint_loads_into_a_stock_keras_lstm_with_its_adam_state(checkpoint):
    prefix, reader = checkpoint
    model = keras_model()
    assert load_tf1_checkpoint(model, prefix, variable_map={}) == 2
    kernel, recurrent, bias = (np.asarray(v) for v in model.get_layer("lstm").weights)
    expected = REGISTRY["lstm_kernel"].to_keras([reader.get_tensor("model/rnn/lstm_cell/kernel")],
                                                [kernel.shape, recurrent.shape])
    np.testing.assert_array_equal(kernel, expected[0])
    np.testing.assert_array_equal(recurrent, expected[1])
    np.testing.assert_array_equal(bias, REGISTRY["lstm_bias"].to_keras([reader.get_tensor("model/rnn/lstm_cell/bias")],
                                                                      [bias.shape])[0])
    optimizer = model.optimizer
    bias_moment = np.asarray(optimizer._momentums[variable_index(optimizer, model.get_layer("lstm").weights[2])])
    tf1_moment = reader.get_tensor("model/rnn/lstm_cell/bias/Adam")
    np.testing.assert_array_equal(bias_moment, REGISTRY["lstm_bias"].for_slots.to_keras([tf1_moment], [bias.shape])[0])
    assert int(optimizer.iterations.numpy()) == 2


def test_a_mapping_that_does_not_fit_loads_nothing(checkpoint):
    prefix, _ = checkpoint
    model = keras_model()
    before = [np.asarray(v).copy() for v in model.weights]
    with pytest.raises(TF1CheckpointError, match=r"does not map onto the model: variable_map maps model/logits/kernel "
                                                 r"\(4, 3\) onto logits/kernel \(4, 3\) with transposed_dense"):
        load_tf1_checkpoint(model, prefix, variable_map={"model/logits/kernel": ("logits/kernel", "transposed_dense")})
    assert all(np.array_equal(a, np.asarray(b)) for a, b in zip(before, model.weights))


def test_keras_weights_go_back_into_the_tf1_layout_through_the_inverses(checkpoint, tmp_path):
    import tensorflow as tf

    prefix, reader = checkpoint
    model = keras_model()
    load_tf1_checkpoint(model, prefix, variable_map={})
    written = tf.train.load_checkpoint(save_tf1_checkpoint(model, tmp_path / "back.ckpt", like=prefix))
    for name in ("model/rnn/lstm_cell/kernel", "model/rnn/lstm_cell/bias", "model/logits/kernel", "model/logits/bias"):
        # the bias comes back through (b + 1) - 1: equal up to float32 rounding
        np.testing.assert_allclose(written.get_tensor(name), reader.get_tensor(name), rtol=0, atol=1e-6)
    assert int(written.get_tensor("global_step")) == 2


def test_writing_back_through_a_transform_without_inverse_is_refused_naming_it(checkpoint, tmp_path):
    prefix, _ = checkpoint
    model = keras_model()
    with pytest.raises(TF1CheckpointError, match=r"double cannot be undone .* Nothing was written"):
        save_tf1_checkpoint(model, tmp_path / "back.ckpt", like=prefix,
                            variable_map={"model/logits/bias": ("logits/bias", function(lambda b: b * 2, name="double"))})
    assert not list(tmp_path.iterdir())
