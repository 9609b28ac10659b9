"""A small pair for the parity tests: a dense net on 512 MNIST images, TF1 layers against Keras layers.

784 → 32 relu → 10, sparse softmax cross-entropy, SGD, batch 64 (a power of
two: the mean divides exactly). The broken variants in this directory import
this file and change one detail of the Keras side through a `keras_*` param.
"""
from __future__ import annotations

import functools

import numpy as np
import tensorflow as tf

PARAMS = {"batch_size": 64, "learning_rate": 0.1, "optimizer": "sgd", "train_examples": 512, "eval_examples": 512}
STEPS = 6


@functools.lru_cache(maxsize=1)
def arrays():
    from migrate.core.mnist import load_mnist

    data = load_mnist()
    flat = lambda images: images.reshape(len(images), -1).astype(np.float32) / 255.0  # noqa: E731
    return flat(data.x_train[:2048]), data.y_train[:2048].astype(np.int64), flat(data.x_test[:512]), data.y_test[:512].astype(np.int64)


def _train(params):
    """The first `train_examples` images; `nan_in_batch=k` puts a NaN pixel into batch k (1-based) on both sides."""
    x, y, _, _ = arrays()
    n = params["train_examples"]
    x = x[:n].copy()
    if params.get("nan_in_batch"):
        x[(params["nan_in_batch"] - 1) * params["batch_size"], 0] = np.nan
    return x, y[:n]


def _eval(params):
    _, _, x, y = arrays()
    n = params["eval_examples"]
    return x[:n], y[:n]


def model_fn(features, labels, mode, params):
    hidden = tf.compat.v1.layers.dense(features, 32, activation=tf.nn.relu, name="hidden")
    logits = tf.compat.v1.layers.dense(hidden, 10, name="logits")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"logits": logits, "classes": tf.argmax(logits, 1)})
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        accuracy = tf.compat.v1.metrics.accuracy(labels=labels, predictions=tf.argmax(logits, 1))
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"accuracy": accuracy})
    optimizer = tf.compat.v1.train.GradientDescentOptimizer(params["learning_rate"])
    train_op = optimizer.minimize(loss, global_step=tf.compat.v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def train_input_fn(params):
    return tf.data.Dataset.from_tensor_slices(_train(params)).repeat().batch(params["batch_size"])


def eval_input_fn(params):
    return tf.data.Dataset.from_tensor_slices(_eval(params)).batch(params["batch_size"])


def build_model(params):
    """The Keras twin; the `keras_*` params exist so the broken variants can change one detail."""
    inputs = tf.keras.Input(shape=(784,))
    hidden = tf.keras.layers.Dense(params.get("keras_units", 32), activation=params.get("keras_activation", "relu"),
                                   bias_initializer=params.get("keras_bias_initializer", "zeros"), name="hidden")(inputs)
    if params.get("keras_dropout"):
        hidden = tf.keras.layers.Dropout(params["keras_dropout"], seed=1)(hidden)
    outputs = tf.keras.layers.Dense(10, name="logits")(hidden)
    model = tf.keras.Model(inputs, outputs)
    loss = tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, reduction=params.get("keras_loss_reduction", "sum_over_batch_size"))
    model.compile(optimizer=tf.keras.optimizers.SGD(params["learning_rate"]), loss=loss, metrics=["accuracy"])
    return model


def train_dataset(params):
    return tf.data.Dataset.from_tensor_slices(_train(params)).repeat().batch(params["batch_size"])


def eval_dataset(params):
    return tf.data.Dataset.from_tensor_slices(_eval(params)).batch(params["batch_size"])
