"""Pair: a `model_fn` in the TF1 idiom (variable scopes, an LSTMCell, `dynamic_rnn`) ↔ a Keras RNN model.

Run it: ``migrate parity --pair examples/tf1_idiom/pair.py`` (see README.md here).

The legacy side reads each MNIST image as a sequence of 28 rows of 28
pixels: `tf.compat.v1.nn.rnn_cell.LSTMCell` unrolled by
`tf.compat.v1.nn.dynamic_rnn`, the last hidden state through a
`tf.compat.v1.layers.dense` ReLU layer, and logits from `get_variable`
weights, all under `tf.compat.v1.variable_scope`s; loss
`tf.compat.v1.losses.sparse_softmax_cross_entropy` (mean over the batch).

The modern side is the stock `keras.layers.LSTM`, then `Dense` layers.
Keras' LSTM stores TF1's one kernel over ``[input, state]`` as a `kernel` and
a `recurrent_kernel`, orders the gates i, f, c, o instead of i, j(=c), f, o,
and keeps TF1's run-time ``forget_bias`` in its bias: `variable_map` says so
with the named transforms `lstm_kernel` and `lstm_bias`
(`migrate.core.transforms`). See README.md for what that costs in
exactness (rounding only).
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


def keras_model(params: Mapping[str, Any]) -> keras.Model:
    """uint8 images [N, 28, 28] → logits [N, 10]; pixels divided by 255.0 like the TF1 side."""
    images = keras.Input(shape=(ROWS, PIXELS), dtype=tf.uint8, name="images")
    rows = keras.layers.Lambda(lambda x: tf.cast(x, tf.float32) / 255.0, name="scale")(images)
    x = keras.layers.LSTM(int(params["lstm_units"]), name="rnn")(rows)
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


# --- the pair contract -------------------------------------------------------------

PARAMS: dict[str, Any] = {
    "batch_size": 32,
    "train_examples": 6400,
    "eval_examples": 1000,
    "lstm_units": 32,
    "dense_units": 32,
    "optimizer": "sgd",
    "learning_rate": 0.1,
    "adam_epsilon": 1e-8,
}
"""`migrate parity` adds ``seed`` (the initializers' op-level seeds) and ``mode``."""
LEARNING_RATES = {"sgd": 0.1, "adam": 0.001}
"""The rate `migrate parity --optimizer NAME` trains with."""
TOLERANCE_SCHEDULE = "rounding"
"""Keras' LSTM sums x·W_x + h·W_h where TF1's cell sums [x, h]·W: the same function, rounded otherwise (README.md)."""


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


variable_map = {
    "rnn_classifier/rnn/lstm_cell/kernel": (["rnn/lstm_cell/kernel", "rnn/lstm_cell/recurrent_kernel"], "lstm_kernel"),
    "rnn_classifier/rnn/lstm_cell/bias": ("rnn/lstm_cell/bias", "lstm_bias"),
    "rnn_classifier/dense/kernel": "dense/kernel",
    "rnn_classifier/dense/bias": "dense/bias",
    "rnn_classifier/logits/weights": "logits/kernel",
    "rnn_classifier/logits/biases": "logits/bias",
}
"""TF1 variable → Keras weight. The LSTM rows carry transforms: TF1's kernel (28 + 32, 4·32) is cut into Keras'
`kernel` (28, 128) and `recurrent_kernel` (32, 128) with the gates reordered; the bias gets the same reordering and
TF1's forget_bias 1.0 folded in. Without this map the engine infers the same table (`--show-mapping`)."""
