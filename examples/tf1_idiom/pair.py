"""Pair: a `model_fn` in the TF1 idiom (variable scopes, an LSTMCell, `dynamic_rnn`) ↔ a Keras RNN model.

Run it: ``migrate parity --pair examples/tf1_idiom/pair.py`` (see README.md here).

The legacy side reads each MNIST image as a sequence of 28 rows of 28
pixels: `tf.compat.v1.nn.rnn_cell.LSTMCell` unrolled by
`tf.compat.v1.nn.dynamic_rnn`, the last hidden state through a
`tf.compat.v1.layers.dense` ReLU layer, and logits from `get_variable`
weights, all under `tf.compat.v1.variable_scope`s; loss
`tf.compat.v1.losses.sparse_softmax_cross_entropy` (mean over the batch).

The modern side is `keras.layers.RNN` over `TF1LSTMCell`, a Keras cell that
computes what TF1's `LSTMCell` computes, then `Dense` layers. Why not
`keras.layers.LSTM`: it stores the weights differently (a `kernel` for the
input and a `recurrent_kernel` for the state instead of one kernel over
``[input, state]``; gates ordered i, f, c, o instead of i, j(=c), f, o;
TF1's ``forget_bias`` baked into the bias) and computes ``x·Wx + h·Wh``
where TF1 computes ``[x, h]·W``: mathematically equal, but the sums round
differently, so the losses drift from step 1. `tf1_lstm_to_keras_lstm`
converts the weights for a stock `keras.layers.LSTM` (``params["rnn"] =
"keras_lstm"``); README.md gives the drift measured for it.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import keras
import numpy as np
import tensorflow as tf

ROWS, PIXELS, CLASSES = 28, 28, 10

# --- the data: the project's MNIST loader, in file order ----------------------


def _mnist():
    from migrate.core.mnist import load_mnist

    return load_mnist()


def _split(params: Mapping[str, Any], training: bool) -> tuple[np.ndarray, np.ndarray]:
    data = _mnist()
    if training:
        count = int(params["train_examples"])
        return data.x_train[:count], data.y_train[:count].astype(np.int32)
    count = int(params["eval_examples"])
    return data.x_test[:count], data.y_test[:count].astype(np.int32)


def _dataset(params: Mapping[str, Any], training: bool) -> tf.data.Dataset:
    """Batches gathered by index, in file order: no image array is embedded in the TF1 graph."""
    images, labels = _split(params, training)

    def gather(batch_indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return images[batch_indices], labels[batch_indices]

    def load(batch_indices: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        x, y = tf.numpy_function(gather, [batch_indices], (tf.uint8, tf.int32))
        x.set_shape([None, ROWS, PIXELS])
        y.set_shape([None])
        return x, y

    indices = tf.data.Dataset.range(len(labels))
    if training:
        indices = indices.repeat()
    return indices.batch(int(params["batch_size"])).map(load)


# --- the legacy side: TF1 idiom -----------------------------------------------


def tf1_optimizer(params: Mapping[str, Any]) -> tf.compat.v1.train.Optimizer:
    name, rate = params["optimizer"], float(params["learning_rate"])
    optimizers = {
        "sgd": lambda: tf.compat.v1.train.GradientDescentOptimizer(rate),
        "adam": lambda: tf.compat.v1.train.AdamOptimizer(rate, epsilon=float(params["adam_epsilon"])),
    }
    if name not in optimizers:
        raise ValueError(f"tf1_idiom pair: params['optimizer'] is {name!r}; expected one of {sorted(optimizers)}.")
    return optimizers[name]()


def _glorot(params: Mapping[str, Any], index: int) -> Any:
    """An op-level seed per variable: without one, TF1 initial values depend on how many ops the graph holds."""
    return tf.compat.v1.glorot_uniform_initializer(seed=int(params.get("seed", 0)) * 10 + index)


def tf1_logits(images: tf.Tensor, params: Mapping[str, Any]) -> tf.Tensor:
    """uint8 images [N, 28, 28] → logits [N, 10], creating the variables as TF1 code did."""
    rows = tf.cast(images, tf.float32) / 255.0
    with tf.compat.v1.variable_scope("rnn_classifier"):
        cell = tf.compat.v1.nn.rnn_cell.LSTMCell(
            int(params["lstm_units"]), initializer=_glorot(params, 0), name="lstm_cell")
        _, state = tf.compat.v1.nn.dynamic_rnn(cell, rows, dtype=tf.float32, scope="rnn")
        hidden = tf.compat.v1.layers.dense(state.h, int(params["dense_units"]), activation=tf.nn.relu,
                                           kernel_initializer=_glorot(params, 1), name="dense")
        with tf.compat.v1.variable_scope("logits"):
            weights = tf.compat.v1.get_variable(
                "weights", [int(params["dense_units"]), CLASSES], initializer=_glorot(params, 2))
            biases = tf.compat.v1.get_variable("biases", [CLASSES], initializer=tf.compat.v1.zeros_initializer())
        return tf.compat.v1.nn.xw_plus_b(hidden, weights, biases)


def model_fn(features, labels, mode, params):
    images = features["images"] if isinstance(features, Mapping) else features
    logits = tf1_logits(images, params)
    classes = tf.argmax(logits, axis=1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"classes": classes, "logits": logits})
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        accuracy = tf.compat.v1.metrics.accuracy(labels=labels, predictions=classes)
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"accuracy": accuracy})
    train_op = tf1_optimizer(params).minimize(loss, global_step=tf.compat.v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


# --- the modern side: Keras layers ----------------------------------------------


class TF1LSTMCell(keras.layers.Layer):
    """A Keras RNN cell computing exactly what `tf.compat.v1.nn.rnn_cell.LSTMCell` computes.

    One ``kernel`` [input + units, 4·units] applied to ``concat([x, h])``,
    gates split as i, j, f, o, ``forget_bias`` added at run time:
    ``c = σ(f + forget_bias)·c + σ(i)·tanh(j)``, ``h = σ(o)·tanh(c)``.
    Its weights have TF1's names and shapes, so they copy over unchanged.
    """

    def __init__(self, units: int, forget_bias: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.units = int(units)
        self.forget_bias = float(forget_bias)
        self.state_size = [self.units, self.units]
        self.output_size = self.units

    def build(self, input_shape: Any) -> None:
        depth = int(input_shape[-1]) + self.units
        self.kernel = self.add_weight(name="kernel", shape=(depth, 4 * self.units), initializer="glorot_uniform")
        self.bias = self.add_weight(name="bias", shape=(4 * self.units,), initializer="zeros")
        super().build(input_shape)

    def call(self, inputs: tf.Tensor, states: list[tf.Tensor]) -> tuple[tf.Tensor, list[tf.Tensor]]:
        h_prev, c_prev = states
        gates = tf.nn.bias_add(tf.matmul(tf.concat([inputs, h_prev], 1), self.kernel), self.bias)
        i, j, f, o = tf.split(gates, num_or_size_splits=4, axis=1)
        c = tf.sigmoid(f + self.forget_bias) * c_prev + tf.sigmoid(i) * tf.tanh(j)
        h = tf.sigmoid(o) * tf.tanh(c)
        return h, [h, c]

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "units": self.units, "forget_bias": self.forget_bias}


def _rnn_layer(params: Mapping[str, Any]) -> keras.layers.Layer:
    if params["rnn"] == "tf1_cell":
        return keras.layers.RNN(TF1LSTMCell(int(params["lstm_units"]), name="lstm_cell"), name="rnn")
    if params["rnn"] == "keras_lstm":
        return keras.layers.LSTM(int(params["lstm_units"]), name="rnn")
    raise ValueError(f"tf1_idiom pair: params['rnn'] is {params['rnn']!r}; expected 'tf1_cell' or 'keras_lstm'.")


def keras_model(params: Mapping[str, Any]) -> keras.Model:
    """uint8 images [N, 28, 28] → logits [N, 10]; pixels divided by 255.0 like the TF1 side."""
    images = keras.Input(shape=(ROWS, PIXELS), dtype=tf.uint8, name="images")
    rows = keras.layers.Lambda(lambda x: tf.cast(x, tf.float32) / 255.0, name="scale")(images)
    x = _rnn_layer(params)(rows)
    x = keras.layers.Dense(int(params["dense_units"]), activation="relu", name="dense")(x)
    logits = keras.layers.Dense(CLASSES, name="logits")(x)
    return keras.Model(images, logits, name="rnn_classifier")


def keras_optimizer(params: Mapping[str, Any]) -> keras.optimizers.Optimizer:
    """The TF1 optimizer's twin with TF1's hyperparameters (Adam epsilon 1e-8)."""
    name, rate = params["optimizer"], float(params["learning_rate"])
    optimizers = {
        "sgd": lambda: keras.optimizers.SGD(rate),
        "adam": lambda: keras.optimizers.Adam(rate, beta_1=0.9, beta_2=0.999, epsilon=float(params["adam_epsilon"])),
    }
    if name not in optimizers:
        raise ValueError(f"tf1_idiom pair: params['optimizer'] is {name!r}; expected one of {sorted(optimizers)}.")
    return optimizers[name]()


def tf1_lstm_to_keras_lstm(kernel: np.ndarray, bias: np.ndarray, forget_bias: float = 1.0) -> list[np.ndarray]:
    """TF1 `LSTMCell` (kernel [in+u, 4u], bias [4u], gates i, j, f, o) → `keras.layers.LSTM` weights.

    Returns ``[kernel [in, 4u], recurrent_kernel [u, 4u], bias [4u]]`` with
    gates reordered to Keras' i, f, c(=j), o, and ``forget_bias`` added to the
    forget gate's bias (Keras has no run-time forget bias).
    """
    units = bias.shape[0] // 4

    def reorder(array: np.ndarray) -> np.ndarray:
        i, j, f, o = np.split(array, 4, axis=-1)
        return np.concatenate([i, f, j, o], axis=-1)

    inputs = kernel.shape[0] - units
    keras_bias = reorder(bias).copy()
    keras_bias[units:2 * units] += np.float32(forget_bias)
    return [reorder(kernel[:inputs]), reorder(kernel[inputs:]), keras_bias]


# --- the pair contract -------------------------------------------------------------

PARAMS: dict[str, Any] = {
    "batch_size": 32,
    "train_examples": 6400,
    "eval_examples": 1000,
    "lstm_units": 32,
    "dense_units": 32,
    "rnn": "tf1_cell",
    "optimizer": "sgd",
    "learning_rate": 0.1,
    "adam_epsilon": 1e-8,
}
"""`migrate parity` adds ``seed`` (the initializers' op-level seeds) and ``mode``."""
LEARNING_RATES = {"sgd": 0.1, "adam": 0.001}
"""The rate `migrate parity --optimizer NAME` trains with."""


def train_input_fn(params):
    return _dataset(params, training=True)


def eval_input_fn(params):
    return _dataset(params, training=False)


def build_model(params):
    model = keras_model(params)
    model.compile(
        optimizer=keras_optimizer(params),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy(name="accuracy")],
    )
    return model


def train_dataset(params):
    return _dataset(params, training=True)


def eval_dataset(params):
    return _dataset(params, training=False)


variable_map: dict[str, str] = {
    "rnn_classifier/rnn/lstm_cell/kernel": "rnn/lstm_cell/kernel",
    "rnn_classifier/rnn/lstm_cell/bias": "rnn/lstm_cell/bias",
    "rnn_classifier/dense/kernel": "dense/kernel",
    "rnn_classifier/dense/bias": "dense/bias",
    "rnn_classifier/logits/weights": "logits/kernel",
    "rnn_classifier/logits/biases": "logits/bias",
}
"""TF1 variable → Keras weight (the ``tf1_cell`` model; names differ only by scope and weights/biases)."""
