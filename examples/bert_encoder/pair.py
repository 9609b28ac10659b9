"""Pair: a BERT-style encoder and classifier written as TF1 BERT is ↔ `MultiHeadAttention` + `LayerNormalization` in Keras.

Run it: ``migrate parity --pair examples/bert_encoder/pair.py`` (see README.md here).

The legacy side follows the layout of google-research/bert (`modeling.py`,
`run_classifier.py`), at toy size: `variable_scope`s ``bert/embeddings``,
``bert/encoder/layer_N/attention/self`` …; word, token-type and position
tables from `get_variable` (truncated normal, stddev 0.02); layer norm as
`tf.contrib.layers.layer_norm` computed it (moments over the last axis,
epsilon 1e-12; contrib is gone from TF 2, so it is spelled out with
`tf.nn.moments` and `tf.nn.batch_normalization` under a ``LayerNorm``
scope); self-attention from three `tf.compat.v1.layers.dense` projections
with (d, d) kernels on the [batch·seq, d] matrix, split into heads by
reshape and transpose, scores scaled by 1/√head_size with the mask added as
−10000; the attention output, intermediate (GELU, tanh form) and output
dense layers with residual connections; a tanh pooler on the first token;
and the classifier's ``output_weights`` [labels, d] applied with
``matmul(…, transpose_b=True)``; loss −Σ one_hot · log_softmax, averaged.

The modern side uses only stock Keras layers: `Embedding` ×3, `Add`,
`LayerNormalization(epsilon=1e-12)`, `MultiHeadAttention` (its kernels are
(d, heads, head_size) and (heads, head_size, d): the same numbers as BERT's
(d, d) kernels, reached through the mapping's ``mha_qkv_kernel``,
``mha_qkv_bias`` and ``mha_output_kernel`` transforms), `Dense` (GELU, tanh
form), `Dropout`, and a `Dense` classifier (``transposed_dense``).

Data: deterministic synthetic sentence pairs (`sentence_pairs`): no download.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow import keras

from modern.optimizers import Adam, GradientDescent

VOCABULARY, TOKEN_TYPES, MAX_POSITIONS, LENGTH, LABELS = 40, 2, 32, 16, 2
PAD, CLS, SEP = 0, 1, 2
CONTENT = (3, VOCABULARY)

# --- the data: synthetic sentence pairs ---------------------------------------


def sentence_pairs(count: int, seed: int) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """BERT's input features for `count` pairs, and labels: 1 when sentence B repeats a token of sentence A.

    ``[CLS] a1 … an [SEP] b1 … bm [SEP] 0 …``: 3 to 6 tokens each, ids 3–39;
    ``segment_ids`` 0 up to the first [SEP], 1 after it; ``input_mask`` 1 on
    real tokens. The same arrays for the same arguments.
    """
    rng = np.random.default_rng(seed)
    ids = np.zeros((count, LENGTH), np.int32)
    segments = np.zeros((count, LENGTH), np.int32)
    mask = np.zeros((count, LENGTH), np.int32)
    labels = np.zeros(count, np.int32)
    for row in range(count):
        first = rng.integers(*CONTENT, rng.integers(3, 7))
        second = rng.integers(*CONTENT, rng.integers(3, 7))
        tokens = [CLS, *first, SEP, *second, SEP]
        ids[row, :len(tokens)] = tokens
        segments[row, len(first) + 2:len(tokens)] = 1
        mask[row, :len(tokens)] = 1
        labels[row] = int(bool(set(first) & set(second)))
    return {"input_ids": ids, "input_mask": mask, "segment_ids": segments}, labels


def _dataset(params: Mapping[str, Any], training: bool) -> tf.data.Dataset:
    features, labels = (sentence_pairs(int(params["train_examples"]), 0) if training
                        else sentence_pairs(int(params["eval_examples"]), 1))
    dataset = tf.data.Dataset.from_tensor_slices((features, labels))
    return (dataset.repeat() if training else dataset).batch(int(params["batch_size"]))


# --- the legacy side: BERT's TF1 layout ------------------------------------------


class _Initializers:
    """BERT's truncated normal (stddev 0.02) with an op-level seed per variable, numbered in creation order."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.base, self.count = int(params.get("seed", 0)) * 1000, 0

    def __call__(self) -> Any:
        self.count += 1
        return tf.compat.v1.truncated_normal_initializer(stddev=0.02, seed=self.base + self.count)


def tf1_gelu(x: tf.Tensor) -> tf.Tensor:
    """BERT's GELU (tanh approximation)."""
    cdf = 0.5 * (1.0 + tf.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * tf.pow(x, 3))))
    return x * cdf


def tf1_layer_norm(inputs: tf.Tensor) -> tf.Tensor:
    """What `tf.contrib.layers.layer_norm(begin_norm_axis=-1, begin_params_axis=-1)` computed, variables included."""
    with tf.compat.v1.variable_scope("LayerNorm"):
        depth = inputs.shape[-1]
        beta = tf.compat.v1.get_variable("beta", [depth], initializer=tf.compat.v1.zeros_initializer())
        gamma = tf.compat.v1.get_variable("gamma", [depth], initializer=tf.compat.v1.ones_initializer())
        mean, variance = tf.nn.moments(inputs, [inputs.shape.rank - 1], keepdims=True)
        return tf.nn.batch_normalization(inputs, mean, variance, offset=beta, scale=gamma, variance_epsilon=1e-12)


def _dropout(inputs: tf.Tensor, rate: float, training: bool) -> tf.Tensor:
    return tf.nn.dropout(inputs, rate=rate) if training and rate > 0.0 else inputs


def _tf1_attention(layer_input: tf.Tensor, adder: tf.Tensor, batch: tf.Tensor, params: Mapping[str, Any],
                   init: _Initializers, training: bool) -> tf.Tensor:
    """BERT's `attention_layer` on a [batch·seq, d] matrix: (d, d) q/k/v kernels, heads by reshape + transpose."""
    heads, size = int(params["heads"]), int(params["hidden_size"]) // int(params["heads"])

    def project(name: str) -> tf.Tensor:
        dense = tf.compat.v1.layers.dense(layer_input, heads * size, name=name, kernel_initializer=init())
        return tf.transpose(tf.reshape(dense, [batch, LENGTH, heads, size]), [0, 2, 1, 3])

    query, key, value = project("query"), project("key"), project("value")
    scores = tf.multiply(tf.matmul(query, key, transpose_b=True), 1.0 / math.sqrt(float(size)))
    probabilities = _dropout(tf.nn.softmax(scores + adder), float(params["dropout_rate"]), training)
    context = tf.transpose(tf.matmul(probabilities, value), [0, 2, 1, 3])
    return tf.reshape(context, [batch * LENGTH, heads * size])


def tf1_pooled_output(features: Mapping[str, tf.Tensor], params: Mapping[str, Any], training: bool) -> tf.Tensor:
    """BERT's `BertModel` up to `get_pooled_output()`: [batch, d]."""
    init, d, rate = _Initializers(params), int(params["hidden_size"]), float(params["dropout_rate"])
    input_ids, segment_ids = features["input_ids"], features["segment_ids"]
    batch = tf.shape(input_ids)[0]
    with tf.compat.v1.variable_scope("bert"):
        with tf.compat.v1.variable_scope("embeddings"):
            words = tf.compat.v1.get_variable("word_embeddings", [VOCABULARY, d], initializer=init())
            output = tf.gather(words, input_ids)
            types = tf.compat.v1.get_variable("token_type_embeddings", [TOKEN_TYPES, d], initializer=init())
            if params["token_type_lookup"] == "one_hot":  # BERT's own: a matmul with a one-hot matrix
                one_hot = tf.one_hot(tf.reshape(segment_ids, [-1]), depth=TOKEN_TYPES)
                output += tf.reshape(tf.matmul(one_hot, types), [batch, LENGTH, d])
            else:
                output += tf.gather(types, segment_ids)
            positions = tf.compat.v1.get_variable("position_embeddings", [MAX_POSITIONS, d], initializer=init())
            output += tf.reshape(tf.slice(positions, [0, 0], [LENGTH, -1]), [1, LENGTH, d])
            output = _dropout(tf1_layer_norm(output), rate, training)
        with tf.compat.v1.variable_scope("encoder"):
            to_mask = tf.cast(tf.reshape(features["input_mask"], [batch, 1, LENGTH]), tf.float32)
            attention_mask = tf.ones([batch, LENGTH, 1], tf.float32) * to_mask
            adder = (1.0 - tf.expand_dims(attention_mask, axis=[1])) * -10000.0
            layer_input = tf.reshape(output, [batch * LENGTH, d])
            for index in range(int(params["layers"])):
                with tf.compat.v1.variable_scope(f"layer_{index}"):
                    with tf.compat.v1.variable_scope("attention"):
                        with tf.compat.v1.variable_scope("self"):
                            attention = _tf1_attention(layer_input, adder, batch, params, init, training)
                        with tf.compat.v1.variable_scope("output"):
                            attention = tf.compat.v1.layers.dense(attention, d, kernel_initializer=init())
                            attention = tf1_layer_norm(_dropout(attention, rate, training) + layer_input)
                    with tf.compat.v1.variable_scope("intermediate"):
                        intermediate = tf.compat.v1.layers.dense(attention, int(params["intermediate_size"]),
                                                                 activation=tf1_gelu, kernel_initializer=init())
                    with tf.compat.v1.variable_scope("output"):
                        layer_output = tf.compat.v1.layers.dense(intermediate, d, kernel_initializer=init())
                        layer_input = tf1_layer_norm(_dropout(layer_output, rate, training) + attention)
            sequence_output = tf.reshape(layer_input, [batch, LENGTH, d])
        with tf.compat.v1.variable_scope("pooler"):
            first_token = tf.squeeze(sequence_output[:, 0:1, :], axis=1)
            return tf.compat.v1.layers.dense(first_token, d, activation=tf.tanh, kernel_initializer=init())


def tf1_optimizer(params: Mapping[str, Any]) -> tf.compat.v1.train.Optimizer:
    name, rate = params["optimizer"], float(params["learning_rate"])
    if name == "sgd":
        return tf.compat.v1.train.GradientDescentOptimizer(rate)
    if name == "adam":
        return tf.compat.v1.train.AdamOptimizer(rate, epsilon=1e-6)
    raise ValueError(f"bert_encoder pair: params['optimizer'] is {name!r}; expected 'sgd' or 'adam'.")


def model_fn(features, labels, mode, params):
    """`run_classifier.create_model` + its `model_fn_builder`, with a `tf.compat.v1.train` optimizer."""
    training = mode == tf.estimator.ModeKeys.TRAIN
    pooled = tf1_pooled_output(features, params, training)
    d = int(params["hidden_size"])
    output_weights = tf.compat.v1.get_variable(
        "output_weights", [LABELS, d],
        initializer=tf.compat.v1.truncated_normal_initializer(stddev=0.02, seed=int(params.get("seed", 0)) * 1000))
    output_bias = tf.compat.v1.get_variable("output_bias", [LABELS], initializer=tf.compat.v1.zeros_initializer())
    with tf.compat.v1.variable_scope("loss"):
        pooled = _dropout(pooled, float(params["dropout_rate"]), training)
        logits = tf.nn.bias_add(tf.matmul(pooled, output_weights, transpose_b=True), output_bias)
        predictions = tf.argmax(logits, axis=-1, output_type=tf.int32)
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(mode, predictions={"logits": logits, "classes": predictions})
        log_probs = tf.nn.log_softmax(logits, axis=-1)
        one_hot_labels = tf.one_hot(labels, depth=LABELS, dtype=tf.float32)
        loss = tf.reduce_mean(-tf.reduce_sum(one_hot_labels * log_probs, axis=-1))
    if mode == tf.estimator.ModeKeys.EVAL:
        accuracy = tf.compat.v1.metrics.accuracy(labels=labels, predictions=predictions)
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"accuracy": accuracy})
    global_step = tf.compat.v1.train.get_or_create_global_step()
    train_op = tf1_optimizer(params).minimize(loss, global_step=global_step)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


# --- the modern side: stock Keras layers ----------------------------------------


def keras_gelu(x: tf.Tensor) -> tf.Tensor:
    """Keras' GELU in its tanh form (BERT's; Keras' default is the exact erf form): ``0.5·x·(1 + tanh(…))``."""
    return keras.activations.gelu(x, approximate=True)


GELUS = {"bert": tf1_gelu, "keras": keras_gelu}
"""``params["gelu"]``: BERT's own function ``x·(0.5·(1 + tanh(…)))`` or Keras' — equal values, gradients rounded
differently (README.md, "GELU")."""


def keras_model(params: Mapping[str, Any]) -> keras.Model:
    d, heads, rate = int(params["hidden_size"]), int(params["heads"]), float(params["dropout_rate"])
    input_ids = keras.Input(shape=(LENGTH,), dtype="int32", name="input_ids")
    input_mask = keras.Input(shape=(LENGTH,), dtype="int32", name="input_mask")
    segment_ids = keras.Input(shape=(LENGTH,), dtype="int32", name="segment_ids")
    position_ids = keras.layers.Lambda(lambda ids: tf.range(tf.shape(ids)[1])[None, :], name="position_ids")(input_ids)
    x = keras.layers.Add(name="embeddings")([
        keras.layers.Embedding(VOCABULARY, d, name="word_embeddings")(input_ids),
        keras.layers.Embedding(TOKEN_TYPES, d, name="token_type_embeddings")(segment_ids),
        keras.layers.Embedding(MAX_POSITIONS, d, name="position_embeddings")(position_ids),
    ])
    x = keras.layers.Dropout(rate)(keras.layers.LayerNormalization(epsilon=1e-12, name="embeddings_norm")(x))
    attention_mask = keras.layers.Reshape((1, LENGTH), name="attention_mask")(input_mask)
    for index in range(int(params["layers"])):
        name = f"layer_{index}"
        attention = keras.layers.MultiHeadAttention(heads, d // heads, dropout=rate, name=f"{name}_attention")(
            x, x, attention_mask=attention_mask)
        attention = keras.layers.Dropout(rate)(attention)
        x = keras.layers.LayerNormalization(epsilon=1e-12, name=f"{name}_attention_norm")(
            keras.layers.Add()([attention, x]))
        intermediate = keras.layers.Dense(int(params["intermediate_size"]), activation=GELUS[params["gelu"]],
                                          name=f"{name}_intermediate")(x)
        output = keras.layers.Dropout(rate)(keras.layers.Dense(d, name=f"{name}_output")(intermediate))
        x = keras.layers.LayerNormalization(epsilon=1e-12, name=f"{name}_output_norm")(keras.layers.Add()([output, x]))
    pooled = keras.layers.Dense(d, activation="tanh", name="pooler")(x[:, 0, :])
    logits = keras.layers.Dense(LABELS, name="classifier")(keras.layers.Dropout(rate)(pooled))
    return keras.Model({"input_ids": input_ids, "input_mask": input_mask, "segment_ids": segment_ids}, logits,
                       name="bert_classifier")


def keras_optimizer(params: Mapping[str, Any]) -> keras.optimizers.Optimizer:
    """The TF1-exact twins (they also apply the embedding tables' sparse gradients as TF1 does)."""
    name, rate = params["optimizer"], float(params["learning_rate"])
    if name == "sgd":
        return GradientDescent(rate)
    if name == "adam":
        return Adam(rate, epsilon=1e-6)
    raise ValueError(f"bert_encoder pair: params['optimizer'] is {name!r}; expected 'sgd' or 'adam'.")


def bert_loss(labels: tf.Tensor, logits: tf.Tensor) -> tf.Tensor:
    """BERT's classifier loss per example, −Σ one_hot · log_softmax (Keras averages it over the batch)."""
    one_hot = tf.one_hot(tf.cast(tf.reshape(labels, [-1]), tf.int32), depth=LABELS, dtype=logits.dtype)
    return -tf.reduce_sum(one_hot * tf.nn.log_softmax(logits, axis=-1), axis=-1)


LOSSES = {"bert": bert_loss, "keras": keras.losses.SparseCategoricalCrossentropy(from_logits=True)}
"""``params["loss"]``: BERT's formula as a Keras loss function, or Keras' own cross-entropy (README: rounding)."""


# --- the pair contract -------------------------------------------------------------

PARAMS: dict[str, Any] = {
    "batch_size": 32,
    "train_examples": 3200,
    "eval_examples": 640,
    "hidden_size": 32,
    "heads": 2,
    "layers": 2,
    "intermediate_size": 64,
    "token_type_lookup": "gather",
    "loss": "bert",
    "gelu": "bert",
    "optimizer": "sgd",
    "learning_rate": 0.1,
}
MODE_PARAMS = {"exact": {"dropout_rate": 0.0}, "statistical": {"dropout_rate": 0.1}}
"""Dropout masks cannot agree between the two APIs: off in the exact mode, BERT's 0.1 otherwise."""
LEARNING_RATES = {"sgd": 0.1, "adam": 1e-3}
PREDICTION_KEY = "logits"


def train_input_fn(params):
    return _dataset(params, training=True)


def eval_input_fn(params):
    return _dataset(params, training=False)


def build_model(params):
    model = keras_model(params)
    model.compile(optimizer=keras_optimizer(params), loss=LOSSES[params["loss"]],
                  metrics=[keras.metrics.SparseCategoricalAccuracy(name="accuracy")])
    return model


def train_dataset(params):
    return _dataset(params, training=True)


def eval_dataset(params):
    return _dataset(params, training=False)


def _layer_map(index: int) -> dict[str, Any]:
    tf1, keras_name = f"bert/encoder/layer_{index}", f"layer_{index}"
    mapping: dict[str, Any] = {}
    for part in ("query", "key", "value"):
        mapping[f"{tf1}/attention/self/{part}/kernel"] = (f"{keras_name}_attention/{part}/kernel", "mha_qkv_kernel")
        mapping[f"{tf1}/attention/self/{part}/bias"] = (f"{keras_name}_attention/{part}/bias", "mha_qkv_bias")
    mapping[f"{tf1}/attention/output/dense/kernel"] = (f"{keras_name}_attention/attention_output/kernel",
                                                       "mha_output_kernel")
    mapping[f"{tf1}/attention/output/dense/bias"] = f"{keras_name}_attention/attention_output/bias"
    for tf1_scope, keras_layer in (("attention/output/LayerNorm", "attention_norm"), ("output/LayerNorm", "output_norm")):
        mapping[f"{tf1}/{tf1_scope}/gamma"] = f"{keras_name}_{keras_layer}/gamma"
        mapping[f"{tf1}/{tf1_scope}/beta"] = f"{keras_name}_{keras_layer}/beta"
    for tf1_scope, keras_layer in (("intermediate/dense", "intermediate"), ("output/dense", "output")):
        mapping[f"{tf1}/{tf1_scope}/kernel"] = f"{keras_name}_{keras_layer}/kernel"
        mapping[f"{tf1}/{tf1_scope}/bias"] = f"{keras_name}_{keras_layer}/bias"
    return mapping


variable_map: dict[str, Any] = {
    "bert/embeddings/word_embeddings": "word_embeddings/embeddings",
    "bert/embeddings/token_type_embeddings": "token_type_embeddings/embeddings",
    "bert/embeddings/position_embeddings": "position_embeddings/embeddings",
    "bert/embeddings/LayerNorm/gamma": "embeddings_norm/gamma",
    "bert/embeddings/LayerNorm/beta": "embeddings_norm/beta",
    **{name: target for index in range(PARAMS["layers"]) for name, target in _layer_map(index).items()},
    "bert/pooler/dense/kernel": "pooler/kernel",
    "bert/pooler/dense/bias": "pooler/bias",
    "output_weights": ("classifier/kernel", "transposed_dense"),
    "output_bias": "classifier/bias",
}
"""BERT's checkpoint names → Keras weights; attention kernels through the MultiHeadAttention transforms."""
