"""`tf.contrib.layers.embed_sequence`, `fully_connected`, `linear` and `flatten` as TF 1.15 builds them on core ops.

TF 1.15's versions (tensorflow/contrib/layers/python/layers/{layers,encoders}.py)
create their variables through `model_variable` (listed in
``GraphKeys.MODEL_VARIABLES`` besides the global variables) and, for
`fully_connected`, run the core `Dense` layer inside the ``fully_connected``
variable scope with a getter that renames ``kernel``/``bias`` to
``weights``/``biases``. The functions here do the same, argument for argument.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from migrate.port.contrib.initializers import xavier_initializer
from migrate.port.contrib.registry import ContribTwin

MODEL_VARIABLES = tf.compat.v1.GraphKeys.MODEL_VARIABLES


def model_variable(name: str, shape=None, dtype=tf.float32, initializer=None, regularizer=None, trainable=True,
                   collections=None, custom_getter=None, **passed) -> tf.Variable:
    """`tf.contrib.framework.model_variable`: a variable also listed in ``MODEL_VARIABLES``; `custom_getter` (a layer's
    getter) is called as TF 1.15 calls it, with the scope's `reuse` and the caching, partitioning and resource
    arguments `passed`."""
    listed = list(set([*(collections or []), tf.compat.v1.GraphKeys.GLOBAL_VARIABLES, MODEL_VARIABLES]))
    if custom_getter is None:
        return tf.compat.v1.get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                                         regularizer=regularizer, trainable=trainable, collections=listed, **passed)
    return custom_getter(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                         trainable=trainable, collections=listed, reuse=tf.compat.v1.get_variable_scope().reuse,
                         **passed)


_PASSED = ("caching_device", "partitioner", "use_resource", "synchronization", "aggregation")
"""What TF 1.15's `_model_variable_getter` passes on from a core layer's variable request (the rest is dropped)."""


def _renaming_getter(renames: dict[str, str]):
    """TF 1.15's `_build_variable_getter`: a core layer's ``kernel``/``bias`` become ``weights``/``biases``."""
    def layer_variable_getter(getter, name, shape=None, dtype=None, initializer=None, regularizer=None,
                              trainable=True, collections=None, **kwargs):
        parts = name.split("/")
        parts[-1] = renames.get(parts[-1], parts[-1])
        passed = {key: kwargs[key] for key in _PASSED if key in kwargs}
        return model_variable("/".join(parts), shape=shape, dtype=dtype, initializer=initializer,
                              regularizer=regularizer, trainable=trainable, collections=collections,
                              custom_getter=getter, **passed)

    return layer_variable_getter


def _add_to_collections(variable: tf.Variable, collections: Any, key: str) -> None:
    chosen = collections.get(key) if isinstance(collections, dict) else collections
    for collection in chosen or []:
        if variable not in tf.compat.v1.get_collection(collection):
            tf.compat.v1.add_to_collection(collection, variable)


def collect_named_outputs(collections, alias: str, outputs):
    """`utils.collect_named_outputs`: the output, added to `collections` under `alias` when any are given."""
    if collections:
        alias = alias[:-1] if alias.endswith("/") else alias
        outputs.aliases = [*getattr(outputs, "aliases", []), alias]
        tf.compat.v1.add_to_collections(collections, outputs)
    return outputs


def embed_sequence(ids, vocab_size=None, embed_dim=None, unique=False, initializer=None, regularizer=None,
                   trainable=True, scope=None, reuse=None):
    """TF 1.15's `embed_sequence`: the model variable ``EmbedSequence/embeddings`` and `tf.nn.embedding_lookup`."""
    if not (reuse or (vocab_size and embed_dim)):
        raise ValueError("Must specify vocab size and embedding dimension when not reusing. Got "
                         f"vocab_size={vocab_size} and embed_dim={embed_dim}")
    if unique:
        raise ValueError("tf.contrib.layers.embed_sequence(unique=True) has no TF1-core twin that migrate port runs: "
                         "leave unique at False (the same values, looked up without deduplication)")
    with tf.compat.v1.variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
        shape = None if (reuse and vocab_size is None) or embed_dim is None else [vocab_size, embed_dim]
        embeddings = model_variable("embeddings", shape=shape, initializer=initializer, regularizer=regularizer,
                                    trainable=trainable)
        return tf.compat.v1.nn.embedding_lookup(embeddings, ids)


def fully_connected(inputs, num_outputs, activation_fn=tf.nn.relu, normalizer_fn=None, normalizer_params=None,
                    weights_initializer=xavier_initializer(), weights_regularizer=None,
                    biases_initializer=tf.compat.v1.zeros_initializer(), biases_regularizer=None, reuse=None,
                    variables_collections=None, outputs_collections=None, trainable=True, scope=None):
    """TF 1.15's `fully_connected`: core `Dense` in scope ``fully_connected`` (``weights``, ``biases``), then the
    normalizer and the activation (relu unless given)."""
    if not isinstance(num_outputs, int) or isinstance(num_outputs, bool):
        raise ValueError(f"num_outputs should be int or long, got {num_outputs}.")
    with tf.compat.v1.variable_scope(scope, "fully_connected", [inputs], reuse=reuse,
                                     custom_getter=_renaming_getter({"bias": "biases", "kernel": "weights"})) as sc:
        inputs = tf.convert_to_tensor(inputs)
        layer = tf.compat.v1.layers.Dense(
            units=num_outputs, activation=None, use_bias=not normalizer_fn and biases_initializer,
            kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
            kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer, activity_regularizer=None,
            trainable=trainable, name=sc.name, dtype=inputs.dtype.base_dtype, _scope=sc, _reuse=reuse)
        outputs = layer(inputs)
        _add_to_collections(layer.kernel, variables_collections, "weights")
        if layer.bias is not None:
            _add_to_collections(layer.bias, variables_collections, "biases")
        if normalizer_fn is not None:
            outputs = normalizer_fn(outputs, **(normalizer_params or {}))
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


def linear(inputs, num_outputs, **kwargs):
    """`tf.contrib.layers.linear`: `fully_connected` without an activation."""
    return fully_connected(inputs, num_outputs, activation_fn=None, **kwargs)


def flatten(inputs, outputs_collections=None, scope=None):
    """TF 1.15's `flatten`: `tf.compat.v1.layers.flatten` in name scope ``Flatten``."""
    with tf.compat.v1.name_scope(scope, "Flatten", [inputs]) as sc:
        outputs = tf.compat.v1.layers.flatten(tf.convert_to_tensor(inputs))
        return collect_named_outputs(outputs_collections, sc, outputs)


TWINS = (
    ContribTwin("layers.embed_sequence", lambda: embed_sequence,
                "tf.compat.v1.get_variable('EmbedSequence/embeddings', [vocab_size, embed_dim]) + "
                "tf.nn.embedding_lookup, as TF 1.15 builds it"),
    ContribTwin("layers.fully_connected", lambda: fully_connected,
                "tf.compat.v1.layers.Dense in variable scope fully_connected (variables weights, biases; xavier-uniform "
                "weights, zero biases), then activation_fn (tf.nn.relu unless given), as TF 1.15 builds it"),
    ContribTwin("layers.linear", lambda: linear, "fully_connected with activation_fn=None, as in TF 1.15"),
    ContribTwin("layers.flatten", lambda: flatten, "tf.compat.v1.layers.flatten in name scope Flatten, as in TF 1.15"),
)
