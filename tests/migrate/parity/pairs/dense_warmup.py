"""`dense.py` with three details real model_fns have, each of which the engine must report truthfully:

* a warm-up: the learning rate is 0 at step 1 on both sides, so step 1 updates nothing and stage 3 checks step 2;
* the model_fn predicts only `probabilities` and `classes` while the Keras model outputs logits (softmax matches);
* the output bias is initialised from an unseeded NumPy generator, so two draws of the initial values differ.
"""
from __future__ import annotations

import numpy as np
import tensorflow as tf
from dense import PARAMS, STEPS, eval_dataset, eval_input_fn, train_dataset, train_input_fn  # noqa: F401


def warmup(step, learning_rate):
    return tf.compat.v1.train.piecewise_constant(step, [0], [0.0, learning_rate])


def model_fn(features, labels, mode, params):
    hidden = tf.compat.v1.layers.dense(features, 32, activation=tf.nn.relu, name="hidden")
    bias = tf.compat.v1.constant_initializer(np.random.default_rng().normal(size=10))
    logits = tf.compat.v1.layers.dense(hidden, 10, name="logits", bias_initializer=bias)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"probabilities": tf.nn.softmax(logits),
                                                             "classes": tf.argmax(logits, 1)})
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        accuracy = tf.compat.v1.metrics.accuracy(labels=labels, predictions=tf.argmax(logits, 1))
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"accuracy": accuracy})
    step = tf.compat.v1.train.get_or_create_global_step()
    optimizer = tf.compat.v1.train.GradientDescentOptimizer(warmup(step, params["learning_rate"]))
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=optimizer.minimize(loss, global_step=step))


def build_model(params):
    inputs = tf.keras.Input(shape=(784,))
    hidden = tf.keras.layers.Dense(32, activation="relu", name="hidden")(inputs)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(10, name="logits")(hidden))
    schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay([0], [0.0, params["learning_rate"]])
    model.compile(optimizer=tf.keras.optimizers.SGD(schedule), metrics=["accuracy"],
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model
