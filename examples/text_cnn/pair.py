"""Pair: a TF1 text CNN (conv2d over the expanded embedding, max-over-time) ↔ `Embedding` + `Conv1D` in Keras.

Run it: ``migrate parity --pair examples/text_cnn/pair.py`` (see README.md here).

The legacy side is written the way TF1 sentence classifiers after Kim (2014)
were, e.g. dennybritz/cnn-text-classification-tf: an embedding matrix made
with ``tf.Variable(tf.random.uniform(...))``, looked up with
`tf.nn.embedding_lookup` and expanded to [N, length, emb, 1]; per filter
width k a `tf.nn.conv2d` with a (k, emb, 1, filters) filter and VALID
padding, ReLU after `bias_add`, `tf.nn.max_pool` over the whole remaining
length; the pooled features concatenated, dropout, and an output layer from
`get_variable` with `xw_plus_b`; loss `softmax_cross_entropy_with_logits`
on one-hot labels, averaged with `reduce_mean`.

The modern side uses only stock Keras layers: `Embedding`, one `Conv1D` per
width (kernel (k, emb, filters): the same numbers as TF1's filter without
its unit axis — the ``conv2d_as_conv1d`` transform of the mapping),
`GlobalMaxPooling1D`, `Concatenate`, `Dropout`, `Dense`.

Data: deterministic synthetic token sequences (module `tokens` docstring):
no download.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow import keras

from modern.optimizers import Adam, GradientDescent

# --- the data: synthetic sentences of token ids ---------------------------------

VOCABULARY = 60
LENGTH = 24
CLASSES = 2
POSITIVE = range(2, 12)
NEGATIVE = range(12, 22)
PAD = 0


def tokens(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(ids [count, LENGTH] int32, one-hot labels [count, 2] float32), the same arrays for the same arguments.

    Each sentence has 8 to 24 tokens drawn uniformly from ids 1..59, padded
    with id 0 at the end; its label is 1 when it holds more "positive" ids
    (2..11) than "negative" ones (12..21), else 0 — a bag-of-words rule that
    filters of any width can learn.
    """
    rng = np.random.default_rng(seed)
    lengths = rng.integers(8, LENGTH + 1, count)
    ids = rng.integers(1, VOCABULARY, (count, LENGTH)).astype(np.int32)
    ids[np.arange(LENGTH)[None, :] >= lengths[:, None]] = PAD
    positive = np.isin(ids, POSITIVE).sum(axis=1)
    negative = np.isin(ids, NEGATIVE).sum(axis=1)
    labels = (positive > negative).astype(np.int64)
    return ids, np.eye(CLASSES, dtype=np.float32)[labels]


def _dataset(params: Mapping[str, Any], training: bool) -> tf.data.Dataset:
    ids, labels = tokens(int(params["train_examples"]), 0) if training else tokens(int(params["eval_examples"]), 1)
    dataset = tf.data.Dataset.from_tensor_slices((ids, labels))
    return (dataset.repeat() if training else dataset).batch(int(params["batch_size"]))


# --- the legacy side: the TF1 text-CNN idiom -----------------------------------


def _seed(params: Mapping[str, Any], index: int) -> int:
    """An op-level seed per variable, so the initial values do not depend on how many ops the graph holds."""
    return int(params.get("seed", 0)) * 100 + index


def tf1_logits(ids: tf.Tensor, params: Mapping[str, Any], training: bool) -> tf.Tensor:
    emb, filters, widths = int(params["embedding_size"]), int(params["num_filters"]), list(params["filter_sizes"])
    with tf.name_scope("embedding"):
        table = tf.Variable(tf.random.uniform([VOCABULARY, emb], -1.0, 1.0, seed=_seed(params, 0)), name="W")
        embedded = tf.nn.embedding_lookup(table, ids)
        expanded = tf.expand_dims(embedded, -1)
    pooled = []
    for index, width in enumerate(widths):
        with tf.name_scope(f"conv-maxpool-{width}"):
            kernel = tf.Variable(tf.random.truncated_normal([width, emb, 1, filters], stddev=0.1,
                                                            seed=_seed(params, 1 + index)), name="W")
            bias = tf.Variable(tf.constant(0.1, shape=[filters]), name="b")
            conv = tf.nn.conv2d(expanded, kernel, strides=[1, 1, 1, 1], padding="VALID", name="conv")
            hidden = tf.nn.relu(tf.nn.bias_add(conv, bias), name="relu")
            pooled.append(tf.compat.v1.nn.max_pool(hidden, ksize=[1, LENGTH - width + 1, 1, 1], strides=[1, 1, 1, 1],
                                           padding="VALID", name="pool"))
    features = tf.reshape(tf.concat(pooled, 3), [-1, filters * len(widths)])
    rate = float(params["dropout_rate"])
    if training and rate > 0.0:
        with tf.name_scope("dropout"):
            features = tf.nn.dropout(features, rate=rate, seed=_seed(params, 99))
    with tf.name_scope("output"):
        weights = tf.compat.v1.get_variable(
            "W", shape=[filters * len(widths), CLASSES],
            initializer=tf.compat.v1.glorot_uniform_initializer(seed=_seed(params, 50)))
        bias = tf.Variable(tf.constant(0.1, shape=[CLASSES]), name="b")
        return tf.compat.v1.nn.xw_plus_b(features, weights, bias, name="scores")


def tf1_optimizer(params: Mapping[str, Any]) -> tf.compat.v1.train.Optimizer:
    name, rate = params["optimizer"], float(params["learning_rate"])
    if name == "sgd":
        return tf.compat.v1.train.GradientDescentOptimizer(rate)
    if name == "adam":
        return tf.compat.v1.train.AdamOptimizer(rate)
    raise ValueError(f"text_cnn pair: params['optimizer'] is {name!r}; expected 'sgd' or 'adam'.")


def model_fn(features, labels, mode, params):
    ids = features["ids"] if isinstance(features, Mapping) else features
    logits = tf1_logits(ids, params, training=mode == tf.estimator.ModeKeys.TRAIN)
    predictions = tf.argmax(logits, 1, name="predictions")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"classes": predictions, "logits": logits})
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    if mode == tf.estimator.ModeKeys.EVAL:
        accuracy = tf.compat.v1.metrics.accuracy(labels=tf.argmax(labels, 1), predictions=predictions)
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"accuracy": accuracy})
    global_step = tf.compat.v1.train.get_or_create_global_step()
    optimizer = tf1_optimizer(params)
    train_op = optimizer.apply_gradients(optimizer.compute_gradients(loss), global_step=global_step)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


# --- the modern side: stock Keras layers ----------------------------------------


BIAS_INIT = keras.initializers.Constant(0.1)
"""The original starts every bias at 0.1 (``tf.constant(0.1, shape=…)``); Keras' default is 0."""


def max_over_time(inputs: Any, width: int, pooling: str) -> Any:
    """The largest value of each filter over the sequence, [N, filters].

    ``"max_pool"``: `MaxPooling1D` over the whole length, then `Flatten` — the
    op TF1's `max_pool` runs, whose gradient goes to one position when several
    hold the maximum. ``"global"``: `GlobalMaxPooling1D`, a `reduce_max`, whose
    gradient is shared among tied positions (windows over the padding are
    equal, so ties are common): the same numbers, rounded in another order
    (README.md, "Max over time").
    """
    if pooling == "max_pool":
        pooled = keras.layers.MaxPooling1D(LENGTH - width + 1, name=f"max_over_time_{width}")(inputs)
        return keras.layers.Flatten(name=f"flatten_{width}")(pooled)
    if pooling == "global":
        return keras.layers.GlobalMaxPooling1D(name=f"max_over_time_{width}")(inputs)
    raise ValueError(f"text_cnn pair: params['pooling'] is {pooling!r}; expected 'max_pool' or 'global'.")


def keras_model(params: Mapping[str, Any]) -> keras.Model:
    emb, filters, widths = int(params["embedding_size"]), int(params["num_filters"]), list(params["filter_sizes"])
    ids = keras.Input(shape=(LENGTH,), dtype="int32", name="ids")
    embedded = keras.layers.Embedding(VOCABULARY, emb, name="embedding")(ids)
    pooled = [max_over_time(keras.layers.Conv1D(filters, width, activation="relu", bias_initializer=BIAS_INIT,
                                                  name=f"conv_{width}")(embedded),
                            width, str(params["pooling"])) for width in widths]
    features = keras.layers.Concatenate(name="features")(pooled)
    features = keras.layers.Dropout(float(params["dropout_rate"]), name="dropout")(features)
    logits = keras.layers.Dense(CLASSES, bias_initializer=BIAS_INIT, name="output")(features)
    return keras.Model(ids, logits, name="text_cnn")


def keras_optimizer(params: Mapping[str, Any]) -> keras.optimizers.Optimizer:
    """The TF1-exact twins: they apply the embedding's sparse gradient as TF1 does (README.md, "Sparse updates")."""
    name, rate = params["optimizer"], float(params["learning_rate"])
    if name == "sgd":
        return GradientDescent(rate)
    if name == "adam":
        return Adam(rate)
    raise ValueError(f"text_cnn pair: params['optimizer'] is {name!r}; expected 'sgd' or 'adam'.")


# --- the pair contract -------------------------------------------------------------

PARAMS: dict[str, Any] = {
    "batch_size": 32,
    "train_examples": 3200,
    "eval_examples": 640,
    "embedding_size": 16,
    "filter_sizes": [3, 4, 5],
    "num_filters": 8,
    "optimizer": "sgd",
    "learning_rate": 0.1,
    "pooling": "max_pool",
}
MODE_PARAMS = {"exact": {"dropout_rate": 0.0}, "statistical": {"dropout_rate": 0.5}}
"""Dropout masks cannot agree between the two APIs: off in the exact mode, 0.5 (the original's keep_prob) otherwise."""
LEARNING_RATES = {"sgd": 0.1, "adam": 0.001}
"""Adam 1e-3: the original's `AdamOptimizer(1e-3)`."""
PREDICTION_KEY = "logits"


def train_input_fn(params):
    return _dataset(params, training=True)


def eval_input_fn(params):
    return _dataset(params, training=False)


def build_model(params):
    model = keras_model(params)
    model.compile(
        optimizer=keras_optimizer(params),
        loss=keras.losses.CategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.CategoricalAccuracy(name="accuracy")],
    )
    return model


def train_dataset(params):
    return _dataset(params, training=True)


def eval_dataset(params):
    return _dataset(params, training=False)


variable_map: dict[str, Any] = {
    "embedding/W": "embedding/embeddings",
    **{name: entry for width in PARAMS["filter_sizes"] for name, entry in (
        (f"conv-maxpool-{width}/W", (f"conv_{width}/kernel", "conv2d_as_conv1d")),
        (f"conv-maxpool-{width}/b", f"conv_{width}/bias"))},
    "W": "output/kernel",
    "output/b": "output/bias",
}
"""TF1 variable → Keras weight; each conv filter (k, emb, 1, filters) becomes a Conv1D kernel (k, emb, filters)."""
