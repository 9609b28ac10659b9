"""Pair: a tabular click-through-rate `model_fn` in the 2018 TF1 style ↔ its Keras rebuild.

Run it: ``migrate parity --pair examples/ctr_tabular/pair.py`` (see README.md here).

Written as a pair the toolkit's authors did not design the engine around:
feature columns (`input_layer` over two numeric columns and a one-hot hour),
`tf.compat.v1.layers.batch_normalization` with its `UPDATE_OPS`, a
learning rate that warms up then decays in steps (`exponential_decay`,
`staircase=True`, both reading the global step), gradients clipped by global
norm, and `tf.compat.v1.train.MomentumOptimizer`.

The Keras side mirrors each piece: `CategoryEncoding` for the one-hot hour,
the inputs concatenated in *input_layer's* order (columns sorted by name:
age, hour, income), `BatchNormalization` (same defaults), a
`LearningRateSchedule` computing the same formula from `optimizer.iterations`,
`global_clipnorm`, and `modern.optimizers.Momentum`, the TF1-exact twin
(Keras' own `SGD(momentum=…)` drifts: README "Exact or native optimizer?").
``params["feature_order"] = "as_written"`` (``--modern-override
feature_order=as_written``) concatenates age, income, hour instead, to watch
the forward stage say where the outputs start to differ.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import tensorflow as tf

from modern.optimizers import Momentum

PARAMS = {"batch_size": 64, "learning_rate": 0.1, "momentum": 0.9, "decay_steps": 50, "decay_rate": 0.5,
          "warmup_steps": 20, "clip_norm": 5.0, "hidden_units": 32, "feature_order": "input_layer"}
STEPS = 120
HOURS = 24
EXAMPLES = 4096
EVAL_EXAMPLES = 1024


def _data() -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Synthetic clicks that depend on age and the evening hours, the same arrays on every call."""
    rng = np.random.default_rng(0)
    age = rng.normal(40, 12, (EXAMPLES, 1)).astype(np.float32)
    income = rng.lognormal(3, 1, (EXAMPLES, 1)).astype(np.float32)
    hour = rng.integers(0, HOURS, (EXAMPLES, 1)).astype(np.int64)
    click = (age[:, 0] / 40 + (hour[:, 0] > 18) + rng.normal(0, 0.5, EXAMPLES) > 1.5).astype(np.float32)[:, None]
    return {"age": age, "income": income, "hour": hour}, click


def _dataset(params: Mapping[str, Any], training: bool) -> tf.data.Dataset:
    features, click = _data()
    if not training:
        features, click = {key: value[:EVAL_EXAMPLES] for key, value in features.items()}, click[:EVAL_EXAMPLES]
    dataset = tf.data.Dataset.from_tensor_slices((features, click))
    return (dataset.repeat() if training else dataset).batch(int(params["batch_size"]))


def train_input_fn(params):
    return _dataset(params, training=True)


def eval_input_fn(params):
    return _dataset(params, training=False)


train_dataset = train_input_fn
eval_dataset = eval_input_fn


# --- the legacy side -----------------------------------------------------------


def feature_columns() -> list:
    fc = tf.compat.v1.feature_column
    return [fc.numeric_column("age"), fc.numeric_column("income"),
            fc.indicator_column(fc.categorical_column_with_identity("hour", HOURS))]


def tf1_learning_rate(params: Mapping[str, Any], global_step: tf.Tensor) -> tf.Tensor:
    decayed = tf.compat.v1.train.exponential_decay(
        params["learning_rate"], global_step, params["decay_steps"], params["decay_rate"], staircase=True)
    warmup = tf.minimum(1.0, (tf.cast(global_step, tf.float32) + 1.0) / params["warmup_steps"])
    return decayed * warmup


def model_fn(features, labels, mode, params):
    training = mode == tf.estimator.ModeKeys.TRAIN
    net = tf.compat.v1.feature_column.input_layer(features, feature_columns())
    net = tf.compat.v1.layers.dense(net, params["hidden_units"], name="hidden")
    net = tf.nn.relu(tf.compat.v1.layers.batch_normalization(net, training=training, name="bn"))
    logits = tf.compat.v1.layers.dense(net, 1, name="logits")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"logits": logits, "probability": tf.sigmoid(logits)})
    loss = tf.compat.v1.losses.sigmoid_cross_entropy(labels, logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        clicked = tf.cast(logits > 0, tf.float32)
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={
            "accuracy": tf.compat.v1.metrics.accuracy(labels, clicked)})
    global_step = tf.compat.v1.train.get_or_create_global_step()
    optimizer = tf.compat.v1.train.MomentumOptimizer(tf1_learning_rate(params, global_step), params["momentum"])
    gradients, variables = zip(*optimizer.compute_gradients(loss))
    gradients, _ = tf.clip_by_global_norm(gradients, params["clip_norm"])
    with tf.control_dependencies(tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)):
        train_op = optimizer.apply_gradients(zip(gradients, variables), global_step=global_step)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


# --- the modern side -----------------------------------------------------------


class WarmupExponentialDecay(tf.keras.optimizers.schedules.LearningRateSchedule):
    """`tf1_learning_rate` as a Keras schedule: Keras passes `optimizer.iterations`, TF1 passed the global step."""

    def __init__(self, learning_rate: float, decay_steps: int, decay_rate: float, warmup_steps: int) -> None:
        self.config = {"learning_rate": learning_rate, "decay_steps": decay_steps, "decay_rate": decay_rate,
                       "warmup_steps": warmup_steps}
        self.decay = tf.keras.optimizers.schedules.ExponentialDecay(learning_rate, decay_steps, decay_rate, staircase=True)
        self.warmup_steps = warmup_steps

    def __call__(self, step):
        return self.decay(step) * tf.minimum(1.0, (tf.cast(step, tf.float32) + 1.0) / self.warmup_steps)

    def get_config(self) -> dict[str, Any]:
        return dict(self.config)


ORDERS = {"input_layer": ("age", "hour", "income"), "as_written": ("age", "income", "hour")}
"""`input_layer` concatenates the columns sorted by name; "as_written" is the slip the forward stage catches."""


def build_model(params):
    inputs = {"age": tf.keras.Input((1,), name="age"), "income": tf.keras.Input((1,), name="income"),
              "hour": tf.keras.Input((1,), dtype=tf.int64, name="hour")}
    encoded = {"age": inputs["age"], "income": inputs["income"],
               "hour": tf.keras.layers.CategoryEncoding(HOURS, output_mode="one_hot")(inputs["hour"])}
    net = tf.keras.layers.Concatenate()([encoded[name] for name in ORDERS[params["feature_order"]]])
    net = tf.keras.layers.Dense(params["hidden_units"], name="hidden")(net)
    net = tf.keras.layers.ReLU()(tf.keras.layers.BatchNormalization(name="bn")(net))
    logits = tf.keras.layers.Dense(1, name="logits")(net)
    model = tf.keras.Model(inputs, logits)
    schedule = WarmupExponentialDecay(params["learning_rate"], params["decay_steps"], params["decay_rate"],
                                      params["warmup_steps"])
    model.compile(Momentum(schedule, params["momentum"], global_clipnorm=params["clip_norm"]),
                  tf.keras.losses.BinaryCrossentropy(from_logits=True),
                  metrics=[tf.keras.metrics.BinaryAccuracy(threshold=0.0, name="accuracy")])
    return model
