"""A tiny two-optimizer pair with batch norm: Keras 2's `WideDeepModel` (``compile(optimizer=[linear, dnn])``)
against a model_fn that trains a linear part with one TF1 optimizer and a deep part (dense → batch norm → relu
→ dense) with another, the moving statistics updated through `UPDATE_OPS`.

Synthetic data (256 rows of 8 features, a fixed NumPy seed), batch 32, sigmoid cross-entropy. The Keras side
trains with the TF1-exact twins of `modern.optimizers`, so every step is bit-identical. A `keras_*` param swaps
in a subclass with its own `train_step` that differs in that one detail. On Keras 3 (`--side modern --against` a
TF 2.15 trace) the same model is a subclass keeping its second optimizer as an attribute.
"""
from __future__ import annotations

import numpy as np
import tensorflow as tf

from modern.optimizers import Adagrad, GradientDescent

PARAMS = {"batch_size": 32, "linear_learning_rate": 0.05, "dnn_learning_rate": 0.1, "dtype": tf.float32}
STEPS = 4
FEATURES = np.random.default_rng(0).normal(size=(256, 8)).astype(np.float32)
LABELS = (FEATURES[:, :1] + FEATURES[:, 1:2] > 0).astype(np.float32)


def model_fn(features, labels, mode, params):
    features = tf.cast(features, params["dtype"])
    training = mode == tf.estimator.ModeKeys.TRAIN
    with tf.compat.v1.variable_scope("linear"):
        linear = tf.compat.v1.layers.dense(features, 1, name="dense")
    with tf.compat.v1.variable_scope("dnn"):
        hidden = tf.compat.v1.layers.dense(features, 6, name="hidden")
        hidden = tf.nn.relu(tf.compat.v1.layers.batch_normalization(hidden, training=training, name="norm"))
        deep = tf.compat.v1.layers.dense(hidden, 1, name="out")
    logits = linear + deep
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"logits": logits})
    loss = tf.compat.v1.losses.sigmoid_cross_entropy(labels, logits)
    linear_train = tf.compat.v1.train.GradientDescentOptimizer(params["linear_learning_rate"]).minimize(
        loss, var_list=tf.compat.v1.trainable_variables("linear"))
    with tf.control_dependencies(tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)):
        dnn_train = tf.compat.v1.train.AdagradOptimizer(params["dnn_learning_rate"]).minimize(
            loss, var_list=tf.compat.v1.trainable_variables("dnn"))
    step = tf.compat.v1.assign_add(tf.compat.v1.train.get_or_create_global_step(), 1)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=tf.group(linear_train, dnn_train, step))


def train_input_fn(params):
    return tf.data.Dataset.from_tensor_slices((FEATURES, LABELS)).repeat().batch(params["batch_size"])


train_dataset = train_input_fn


WideDeepModel = getattr(getattr(tf.keras, "experimental", None), "WideDeepModel", object)
"""Keras 2's two-optimizer model; Keras 3 has none (`AttributeOptimizers` is its idiom)."""


class AttributeOptimizers(tf.keras.Model):
    """The Keras 3 idiom (no optimizer list in `compile`): the deep part's optimizer is an attribute and `train_step`
    applies each optimizer to its own part, the loss through `compute_loss`."""

    def __init__(self, linear, dnn, linear_optimizer, dnn_optimizer):
        super().__init__()
        self.linear_model, self.dnn_model = linear, dnn
        self.linear_optimizer, self.dnn_optimizer = linear_optimizer, dnn_optimizer

    def call(self, inputs, training=False):
        return self.linear_model(inputs, training=training) + self.dnn_model(inputs, training=training)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape(persistent=True) as tape:
            loss = self.compute_loss(x=x, y=y, y_pred=self(x, training=True))
        for optimizer, part in ((self.linear_optimizer, self.linear_model), (self.dnn_optimizer, self.dnn_model)):
            optimizer.apply_gradients(zip(tape.gradient(loss, part.trainable_variables), part.trainable_variables))
        return {"examples": tf.shape(x)[0]}


class VariantWideDeep(WideDeepModel):
    """Its own train_step, for the tests: `keras_quiet` reports the loss nowhere the engine reads it,
    `keras_nudge_at=k` scales the linear part's gradients by 1 + 2^-16 at step k (a last-bit update difference),
    `keras_skew_loss_at=k` reports step k's loss 1 + 2^-22 times too large (the weights unchanged),
    `keras_nudge_state_at=k` scales the batch norm's moving mean by 1 + 2^-20 after step k (the losses unchanged)."""

    def __init__(self, *args, params, **kwargs):
        super().__init__(*args, **kwargs)
        self.params = dict(params)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape(persistent=True) as tape:
            logits = self(x, training=True)
            if self.params.get("keras_quiet"):
                loss = tf.reduce_mean(tf.keras.losses.binary_crossentropy(y, logits, from_logits=True))
            else:
                loss = self.compiled_loss(y, logits)
        step = self.optimizer[0].iterations + 1
        for optimizer, part in zip(self.optimizer, (self.linear_model, self.dnn_model)):
            gradients = tape.gradient(loss, part.trainable_variables)
            if part is self.linear_model and self.params.get("keras_nudge_at"):
                scale = tf.where(step == self.params["keras_nudge_at"], 1.0 + 2.0**-16, 1.0)
                gradients = [gradient * scale for gradient in gradients]
            optimizer.apply_gradients(zip(gradients, part.trainable_variables))
        if self.params.get("keras_nudge_state_at"):
            moving_mean = self.dnn_model.get_layer("norm").moving_mean
            moving_mean.assign(moving_mean * tf.where(step == self.params["keras_nudge_state_at"], 1.0 + 2.0**-20, 1.0))
        if self.params.get("keras_quiet"):
            return {}
        skew = tf.where(step == self.params.get("keras_skew_loss_at", 0), 1.0 + 2.0**-22, 1.0)
        return {"step_loss": loss * skew}


def build_model(params):
    assert params["dtype"] == tf.float32
    linear = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1, name="dense")], name="linear")
    dnn = tf.keras.Sequential([
        tf.keras.Input((8,)), tf.keras.layers.Dense(6, name="hidden"),
        tf.keras.layers.BatchNormalization(name="norm"), tf.keras.layers.ReLU(), tf.keras.layers.Dense(1, name="out"),
    ], name="dnn")
    optimizers = [GradientDescent(params["linear_learning_rate"]), Adagrad(params["dnn_learning_rate"])]
    loss = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    if WideDeepModel is object:  # Keras 3
        model = AttributeOptimizers(linear, dnn, *optimizers)
        model.compile(optimizer=optimizers[0], loss=loss)
        return model
    own = any(params.get(key) for key in ("keras_quiet", "keras_nudge_at", "keras_skew_loss_at", "keras_nudge_state_at"))
    model = VariantWideDeep(linear, dnn, params=params) if own else WideDeepModel(linear, dnn)
    model.compile(optimizer=optimizers, loss=loss)
    return model
