"""Pair: a pre-activation ResNet `model_fn` with batch norm and a piecewise-constant schedule ↔ Keras layers.

Run it: ``migrate parity --pair examples/resnet_bn/pair.py`` (see README.md here).

The legacy side is written the way the TF1 official ResNet (tensorflow/models
``official/r1/resnet``) wrote its model and training op, at MNIST size:
pre-activation ("v2") building blocks from `tf.compat.v1.layers.conv2d` and
`tf.compat.v1.layers.batch_normalization` (momentum 0.997, epsilon 1e-5,
fused), fixed padding before strided convolutions, a projection shortcut on
the first block of each group, the mean over height and width, a dense
layer; the learning rate is `tf.compat.v1.train.piecewise_constant` on the
global step (boundaries and rates derived the way that code derives them
from epochs), and the optimizer's update runs under the `UPDATE_OPS`
control dependency so the moving statistics follow each training step.

The modern side uses only stock Keras layers: `Conv2D`, `ZeroPadding2D`,
`BatchNormalization` (same momentum and epsilon; Keras runs its moving-average
updates itself in `fit`), `ReLU`, `Add`, `GlobalAveragePooling2D`, `Dense`, and
`keras.optimizers.schedules.PiecewiseConstantDecay`, which reads the
optimizer's step counter as TF1 read the global step.

Data: the project's MNIST loader (`migrate.core.mnist`), in file order.
Optimizers: ``"sgd"`` (exact parity check) and ``"momentum"`` — the official
code's `MomentumOptimizer(momentum=0.9)`, whose Keras side is the TF1-exact
twin `modern.optimizers.Momentum`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow import keras

from modern.optimizers import Momentum

ROWS, PIXELS, CLASSES = 28, 28, 10
BN_EPSILON = 1e-5
"""The official TF1 ResNet's `_BATCH_NORM_EPSILON`; its decay (0.997, for runs of 100k steps) is
``params["batch_norm_decay"]``, 0.9 here so the moving statistics settle within a 200-step run."""

# --- the data: the project's MNIST loader, in file order ----------------------


def _mnist():
    from migrate.core.mnist import load_mnist

    return load_mnist()


def _dataset(params: Mapping[str, Any], training: bool) -> tf.data.Dataset:
    """(images [N, 28, 28, 1] float32 in [0, 1], labels [N] int32) batches gathered by index, in file order."""
    data = _mnist()
    if training:
        images, labels = data.x_train[: int(params["train_examples"])], data.y_train[: int(params["train_examples"])]
    else:
        images, labels = data.x_test[: int(params["eval_examples"])], data.y_test[: int(params["eval_examples"])]

    def gather(batch_indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (images[batch_indices, :, :, None].astype(np.float32) / np.float32(255.0),
                labels[batch_indices].astype(np.int32))

    def load(batch_indices: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        x, y = tf.numpy_function(gather, [batch_indices], (tf.float32, tf.int32))
        x.set_shape([None, ROWS, PIXELS, 1])
        y.set_shape([None])
        return x, y

    indices = tf.data.Dataset.range(len(labels))
    if training:
        indices = indices.repeat()
    return indices.batch(int(params["batch_size"])).map(load)


def learning_rate_boundaries(params: Mapping[str, Any]) -> tuple[list[int], list[float]]:
    """Steps and rates as the official code derives them: epochs × batches per epoch, base rate × decay."""
    batches_per_epoch = int(params["train_examples"]) / int(params["batch_size"])
    boundaries = [int(batches_per_epoch * epoch) for epoch in params["boundary_epochs"]]
    rates = [float(params["learning_rate"]) * decay for decay in params["decay_rates"]]
    return boundaries, rates


# --- the legacy side: the official TF1 ResNet's idiom ------------------------


def _kernel_initializer(params: Mapping[str, Any], index: int) -> Any:
    """`variance_scaling_initializer` as the official code uses it, with an op-level seed per variable.

    A graph-level seed alone gives initial values that depend on how many ops
    the graph holds before each variable; the op-level seed keeps the figures
    in README.md reproducible.
    """
    return tf.compat.v1.variance_scaling_initializer(seed=int(params.get("seed", 0)) * 100 + index)


class _TF1Builder:
    """Creates the TF1 layers in order, numbering the initializer seeds."""

    def __init__(self, params: Mapping[str, Any], training: bool) -> None:
        self.params, self.training, self.count = params, training, 0

    def batch_norm(self, inputs: tf.Tensor) -> tf.Tensor:
        return tf.compat.v1.layers.batch_normalization(
            inputs, momentum=float(self.params["batch_norm_decay"]), epsilon=BN_EPSILON, center=True, scale=True, training=self.training,
            fused=True)

    def conv(self, inputs: tf.Tensor, filters: int, kernel_size: int, strides: int) -> tf.Tensor:
        """Strided convolutions pad explicitly (independent of the input size), then run VALID."""
        if strides > 1:
            total = kernel_size - 1
            begin = total // 2
            inputs = tf.pad(inputs, [[0, 0], [begin, total - begin], [begin, total - begin], [0, 0]])
        self.count += 1
        return tf.compat.v1.layers.conv2d(
            inputs, filters, kernel_size, strides=strides, padding="SAME" if strides == 1 else "VALID",
            use_bias=False, kernel_initializer=_kernel_initializer(self.params, self.count))

    def block(self, inputs: tf.Tensor, filters: int, strides: int, projection: bool) -> tf.Tensor:
        """Pre-activation block: BN, ReLU, (projection shortcut), conv, BN, ReLU, conv, add."""
        shortcut = inputs
        inputs = tf.nn.relu(self.batch_norm(inputs))
        if projection:
            shortcut = self.conv(inputs, filters, 1, strides)
        inputs = self.conv(inputs, filters, 3, strides)
        inputs = tf.nn.relu(self.batch_norm(inputs))
        inputs = self.conv(inputs, filters, 3, 1)
        return inputs + shortcut


def tf1_logits(images: tf.Tensor, params: Mapping[str, Any], training: bool) -> tf.Tensor:
    builder = _TF1Builder(params, training)
    inputs = builder.conv(images, int(params["filters"][0]), 3, 1)
    for group, filters in enumerate(params["filters"]):
        strides = 1 if group == 0 else 2
        for index in range(int(params["blocks_per_group"])):
            inputs = builder.block(inputs, int(filters), strides if index == 0 else 1, projection=index == 0)
    inputs = tf.nn.relu(builder.batch_norm(inputs))
    inputs = tf.reduce_mean(inputs, [1, 2], keepdims=True)
    inputs = tf.squeeze(inputs, [1, 2])
    return tf.compat.v1.layers.dense(inputs, CLASSES, kernel_initializer=_kernel_initializer(params, 0))


def tf1_optimizer(params: Mapping[str, Any], learning_rate: tf.Tensor) -> tf.compat.v1.train.Optimizer:
    name = params["optimizer"]
    if name == "sgd":
        return tf.compat.v1.train.GradientDescentOptimizer(learning_rate)
    if name == "momentum":
        return tf.compat.v1.train.MomentumOptimizer(learning_rate, momentum=float(params["momentum"]))
    raise ValueError(f"resnet_bn pair: params['optimizer'] is {name!r}; expected 'sgd' or 'momentum'.")


def model_fn(features, labels, mode, params):
    images = features["images"] if isinstance(features, Mapping) else features
    training = mode == tf.estimator.ModeKeys.TRAIN
    logits = tf1_logits(images, params, training)
    classes = tf.argmax(logits, axis=1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"classes": classes, "logits": logits})
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        accuracy = tf.compat.v1.metrics.accuracy(labels=labels, predictions=classes)
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"accuracy": accuracy})
    global_step = tf.compat.v1.train.get_or_create_global_step()
    boundaries, rates = learning_rate_boundaries(params)
    learning_rate = tf.compat.v1.train.piecewise_constant(global_step, boundaries, rates)
    optimizer = tf1_optimizer(params, learning_rate)
    minimize_op = optimizer.minimize(loss, global_step=global_step)
    update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=tf.group(minimize_op, update_ops))


# --- the modern side: stock Keras layers ------------------------------------


def _conv(inputs: Any, filters: int, kernel_size: int, strides: int, name: str) -> Any:
    if strides > 1:
        total = kernel_size - 1
        begin = total // 2
        inputs = keras.layers.ZeroPadding2D(((begin, total - begin), (begin, total - begin)), name=f"{name}_pad")(inputs)
    return keras.layers.Conv2D(filters, kernel_size, strides=strides, padding="same" if strides == 1 else "valid",
                               use_bias=False, name=name)(inputs)


def _batch_norm(inputs: Any, params: Mapping[str, Any], name: str) -> Any:
    return keras.layers.BatchNormalization(momentum=float(params["batch_norm_decay"]), epsilon=BN_EPSILON,
                                           name=name)(inputs)


def _block(inputs: Any, params: Mapping[str, Any], filters: int, strides: int, projection: bool, name: str) -> Any:
    shortcut = inputs
    inputs = keras.layers.ReLU(name=f"{name}_relu1")(_batch_norm(inputs, params, f"{name}_bn1"))
    if projection:
        shortcut = _conv(inputs, filters, 1, strides, f"{name}_shortcut")
    inputs = _conv(inputs, filters, 3, strides, f"{name}_conv1")
    inputs = keras.layers.ReLU(name=f"{name}_relu2")(_batch_norm(inputs, params, f"{name}_bn2"))
    inputs = _conv(inputs, filters, 3, 1, f"{name}_conv2")
    return keras.layers.Add(name=f"{name}_add")([inputs, shortcut])


def block_names(params: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """(Keras name prefix, has a projection shortcut) per block, in the order both sides build them."""
    return [(f"group{group}_block{index}", index == 0)
            for group in range(len(params["filters"])) for index in range(int(params["blocks_per_group"]))]


def keras_model(params: Mapping[str, Any]) -> keras.Model:
    images = keras.Input(shape=(ROWS, PIXELS, 1), name="images")
    inputs = _conv(images, int(params["filters"][0]), 3, 1, "stem_conv")
    blocks = iter(block_names(params))
    for group, filters in enumerate(params["filters"]):
        for index in range(int(params["blocks_per_group"])):
            name, projection = next(blocks)
            strides = (1 if group == 0 else 2) if index == 0 else 1
            inputs = _block(inputs, params, int(filters), strides, projection, name)
    inputs = keras.layers.ReLU(name="final_relu")(_batch_norm(inputs, params, "final_bn"))
    inputs = keras.layers.GlobalAveragePooling2D(name="average")(inputs)
    logits = keras.layers.Dense(CLASSES, name="logits")(inputs)
    return keras.Model(images, logits, name="resnet")


def keras_optimizer(params: Mapping[str, Any]) -> keras.optimizers.Optimizer:
    boundaries, rates = learning_rate_boundaries(params)
    schedule = keras.optimizers.schedules.PiecewiseConstantDecay(boundaries, rates)
    name = params["optimizer"]
    if name == "sgd":
        return keras.optimizers.SGD(schedule)
    if name == "momentum":
        return Momentum(schedule, momentum=float(params["momentum"]))
    raise ValueError(f"resnet_bn pair: params['optimizer'] is {name!r}; expected 'sgd' or 'momentum'.")


# --- the pair contract -------------------------------------------------------

PARAMS: dict[str, Any] = {
    "batch_size": 32,
    "train_examples": 3200,
    "eval_examples": 1000,
    "filters": [8, 16, 32],
    "blocks_per_group": 1,
    "optimizer": "sgd",
    "learning_rate": 0.1,
    "momentum": 0.9,
    "boundary_epochs": [1.0, 1.5, 1.8],
    "batch_norm_decay": 0.9,
    "decay_rates": [1.0, 0.1, 0.01, 0.001],
}
"""3,200 training images in batches of 32: 100 steps per epoch, so the rate drops at steps 100, 150 and 180."""
LEARNING_RATES = {"sgd": 0.1, "momentum": 0.1}
"""The base rate `migrate parity --optimizer NAME` trains with (then × decay_rates at the boundaries)."""
PREDICTION_KEY = "logits"


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


def _tf1_default_name(kind: str, index: int) -> str:
    """TF1's layer names: ``conv2d``, ``conv2d_1``, … in creation order."""
    return kind if index == 0 else f"{kind}_{index}"


def _tf1_layer_names(params: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The default names TF1 gives the convolutions and batch norms, in the order `tf1_logits` creates them."""
    conv_count = 1 + sum(3 if projection else 2 for _, projection in block_names(params))
    norm_count = 2 * len(block_names(params)) + 1
    return ([_tf1_default_name("conv2d", index) for index in range(conv_count)],
            [_tf1_default_name("batch_normalization", index) for index in range(norm_count)])


def _keras_layer_names(params: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    convs, norms = ["stem_conv"], []
    for name, projection in block_names(params):
        norms.append(f"{name}_bn1")
        convs += ([f"{name}_shortcut"] if projection else []) + [f"{name}_conv1", f"{name}_conv2"]
        norms.append(f"{name}_bn2")
    norms.append("final_bn")
    return convs, norms


def variable_map_for(params: Mapping[str, Any]) -> dict[str, str]:
    """TF1 variable → Keras weight: TF1's default layer names (`conv2d_3`, `batch_normalization_2`) → named layers."""
    tf1_convs, tf1_norms = _tf1_layer_names(params)
    keras_convs, keras_norms = _keras_layer_names(params)
    mapping = {f"{tf1}/kernel": f"{keras_name}/kernel" for tf1, keras_name in zip(tf1_convs, keras_convs)}
    for tf1, keras_name in zip(tf1_norms, keras_norms):
        mapping.update({f"{tf1}/gamma": f"{keras_name}/gamma", f"{tf1}/beta": f"{keras_name}/beta"})
    mapping.update({"dense/kernel": "logits/kernel", "dense/bias": "logits/bias"})
    return mapping


variable_map: dict[str, str] = variable_map_for(PARAMS)
"""For the shipped architecture (``filters``, ``blocks_per_group`` of `PARAMS`)."""

