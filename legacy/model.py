"""The tutorial's MNIST conv net as an Estimator `model_fn`, in `tf.compat.v1`.

conv 20 5×5 VALID → max-pool 2 → conv 40 5×5 VALID → max-pool 2 → fc 256 →
dropout → fc 256 → dropout → fc 10, sparse softmax cross-entropy.

`tf.contrib.slim` is gone, and `tf.compat.v1.layers` do not give the same
initial weights in two processes for the same seed; raw `get_variable` calls
with explicit op-level seeds do, whatever else the graph holds (input
pipelines, hooks). The math is spelled out op by op because the Keras twin in
`modern/` must reproduce it bit for bit (SGD, dropout off).

The loss tensor is named ``loss`` so hooks fetch it as
`migrate.core.mnist_model.LOSS_TENSOR_NAME`; the params, optimizers and
variable names are that module's contract.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import tensorflow as tf

from migrate.core.mnist_model import (  # noqa: F401  (re-exported: legacy.model is where users look)
    DEFAULT_PARAMS,
    EXAMPLE_FEATURE,
    IMAGE_SHAPE,
    LAYER_NAMES,
    LOSS_OP_NAME,
    LOSS_TENSOR_NAME,
    NUM_CLASSES,
    OPTIMIZERS,
    VARIABLE_SHAPES,
)

_SCOPES = LAYER_NAMES
_DROPOUT_SEED_OFFSET = len(_SCOPES)


def _op_seed(params: Mapping[str, Any], index: int) -> int:
    """A fixed op-level seed per random op, so results do not depend on graph op counts."""
    return int(params.get("seed", 0)) * 1000 + index


def _weights_and_biases(scope: str, weight_shape: tuple[int, ...], params: Mapping[str, Any]) -> tuple[tf.Variable, tf.Variable]:
    with tf.compat.v1.variable_scope(scope):
        weights = tf.compat.v1.get_variable(
            "weights",
            shape=weight_shape,
            dtype=tf.float32,
            initializer=tf.compat.v1.glorot_uniform_initializer(seed=_op_seed(params, _SCOPES.index(scope))),
        )
        biases = tf.compat.v1.get_variable(
            "biases", shape=weight_shape[-1:], dtype=tf.float32, initializer=tf.compat.v1.zeros_initializer()
        )
    return weights, biases


def _conv_pool(x: tf.Tensor, scope: str, params: Mapping[str, Any]) -> tf.Tensor:
    weights, biases = _weights_and_biases(scope, VARIABLE_SHAPES[f"{scope}/weights"], params)
    x = tf.nn.conv2d(x, weights, strides=1, padding="VALID")
    x = tf.nn.relu(tf.nn.bias_add(x, biases))
    return tf.nn.max_pool2d(x, ksize=2, strides=2, padding="VALID")


def _dense(x: tf.Tensor, scope: str, params: Mapping[str, Any]) -> tf.Tensor:
    weights, biases = _weights_and_biases(scope, VARIABLE_SHAPES[f"{scope}/weights"], params)
    return tf.nn.bias_add(tf.matmul(x, weights), biases)


def _dropout(x: tf.Tensor, training: bool, params: Mapping[str, Any], index: int) -> tf.Tensor:
    rate = float(params["dropout_rate"])
    if not training or rate == 0.0:
        return x
    return tf.nn.dropout(x, rate=rate, seed=_op_seed(params, _DROPOUT_SEED_OFFSET + index))


def logits_fn(images: tf.Tensor, training: bool, params: Mapping[str, Any]) -> tf.Tensor:
    """The network from uint8 images [N, 28, 28] to logits [N, 10]; creates the variables."""
    x = tf.cast(images, tf.float32) / 255.0
    x = tf.reshape(x, [-1, 28, 28, 1])
    x = _conv_pool(x, "conv1", params)
    x = _conv_pool(x, "conv2", params)
    x = tf.reshape(x, [-1, 640])
    x = _dropout(tf.nn.relu(_dense(x, "fc1", params)), training, params, 0)
    x = _dropout(tf.nn.relu(_dense(x, "fc2", params)), training, params, 1)
    return _dense(x, "logits", params)


def make_optimizer(params: Mapping[str, Any]) -> tf.compat.v1.train.Optimizer:
    """Adam (the tutorial's) or plain SGD (for exact parity with Keras)."""
    name = params["optimizer"]
    learning_rate = float(params["learning_rate"])
    if name == "adam":
        return tf.compat.v1.train.AdamOptimizer(learning_rate, epsilon=float(params.get("adam_epsilon", 1e-8)))
    if name == "sgd":
        return tf.compat.v1.train.GradientDescentOptimizer(learning_rate)
    raise ValueError(f"params['optimizer'] is {name!r}; expected one of {OPTIMIZERS}.")


def merged_params(params: Mapping[str, Any] | None) -> dict[str, Any]:
    """`DEFAULT_PARAMS` overridden by `params`."""
    return {**DEFAULT_PARAMS, **(params or {})}


def _images(features: tf.Tensor | Mapping[str, tf.Tensor]) -> tf.Tensor:
    if isinstance(features, Mapping):
        if "images" not in features:
            raise ValueError(f"features is a dict with keys {sorted(features)}; expected the key 'images'.")
        return features["images"]
    return features


def model_fn(
    features: tf.Tensor | Mapping[str, tf.Tensor],
    labels: tf.Tensor | None,
    mode: str,
    params: Mapping[str, Any] | None,
    config: tf.estimator.RunConfig | None = None,
) -> tf.estimator.EstimatorSpec:
    """The Estimator `model_fn`: uint8 images [N, 28, 28] (or {"images": ...}) and labels 0–9.

    `params` keys: see `DEFAULT_PARAMS`, plus an optional integer ``seed`` for
    the initializers and dropout (the Estimator's `tf_random_seed` is the
    graph-level seed). Call it once per graph: the loss must be ``loss:0``.
    """
    params = merged_params(params)
    training = mode == tf.estimator.ModeKeys.TRAIN
    logits = logits_fn(_images(features), training, params)
    classes = tf.argmax(logits, axis=1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        predictions = {"classes": classes, "probabilities": tf.nn.softmax(logits), "logits": logits}
        return tf.estimator.EstimatorSpec(mode, predictions=predictions, export_outputs=export_outputs(predictions))

    labels = tf.cast(labels, tf.int32)
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    loss = tf.identity(loss, name=LOSS_OP_NAME)
    if loss.name != LOSS_TENSOR_NAME:
        raise ValueError(
            f"the loss tensor is named {loss.name!r}, not {LOSS_TENSOR_NAME!r}: model_fn was called twice "
            "in one graph or another op is named 'loss'; build each model in a fresh tf.Graph."
        )
    if mode == tf.estimator.ModeKeys.EVAL:
        accuracy = tf.compat.v1.metrics.accuracy(labels=labels, predictions=classes)
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"accuracy": accuracy})

    train_op = make_optimizer(params).minimize(loss, global_step=tf.compat.v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def export_outputs(predictions: Mapping[str, tf.Tensor]) -> dict[str, tf.estimator.export.ExportOutput]:
    """The SavedModel's signatures: ``serving_default`` predicts, ``classify`` answers TF Serving's Classify API.

    ``classify`` gives every example the ten class names ("0" … "9") and their
    probabilities, as the canned classifiers' heads do.
    """
    probabilities = predictions["probabilities"]
    names = tf.strings.as_string(tf.range(NUM_CLASSES))
    classes = tf.tile(tf.expand_dims(names, 0), [tf.shape(probabilities)[0], 1])
    return {
        tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY: tf.estimator.export.PredictOutput(dict(predictions)),
        "classify": tf.estimator.export.ClassificationOutput(scores=probabilities, classes=classes),
    }


def serving_input_receiver_fn() -> tf.estimator.export.TensorServingInputReceiver:
    """What `Estimator.export_saved_model` serves: serialized `tf.Example`s, or the uint8 images themselves.

    The examples (receiver key ``examples``; ``inputs`` in the classify
    signature) hold `EXAMPLE_FEATURE`, the 784 pixels as int64; the
    alternative receiver ``raw`` takes the parsed images [N, 28, 28] uint8
    (signature ``raw:serving_default``).
    """
    serialized = tf.compat.v1.placeholder(tf.string, [None], name="input_example_tensor")
    parsed = tf.io.parse_example(serialized, {EXAMPLE_FEATURE: tf.io.FixedLenFeature(IMAGE_SHAPE, tf.int64)})
    images = tf.cast(parsed[EXAMPLE_FEATURE], tf.uint8, name="images")
    return tf.estimator.export.TensorServingInputReceiver(
        images, {"examples": serialized}, receiver_tensors_alternatives={"raw": {"images": images}})


def initial_weights(params: Mapping[str, Any] | None = None, seed: int = 0) -> dict[str, Any]:
    """The model variables' initial values for `seed`, as numpy arrays keyed by checkpoint name.

    Built in a fresh graph with graph seed `seed` and ``params["seed"] = seed``,
    exactly what `legacy.estimator.make_estimator(seed=seed)` initialises.
    """
    params = {**merged_params(params), "seed": seed}
    with tf.Graph().as_default():
        tf.compat.v1.set_random_seed(seed)
        images = tf.compat.v1.placeholder(tf.uint8, [None, 28, 28])
        logits_fn(images, training=False, params=params)
        variables = {v.op.name: v for v in tf.compat.v1.global_variables()}
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            return session.run({name: variables[name] for name in VARIABLE_SHAPES})
