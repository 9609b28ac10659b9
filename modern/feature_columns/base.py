"""What every feature-column twin shares: raw features, sparse ids, and the two kinds of column.

TF1's feature columns come in two kinds, and so do their twins here:

* a *categorical* twin (`CategoricalFeature`) turns raw features into sparse
  ids (plus optional weights), exactly as the column's ``get_sparse_tensors``
  does: same ops, same order of values, same ``-1``/``""`` dropping;
* a *dense* twin (`DenseFeature`) turns raw features into a float32 tensor,
  exactly as the column's ``get_dense_tensor`` does.

Both are Keras layers so that lookup tables and weights live with the model;
`DenseFeatures` and `LinearModel` call them by method, in TF1's order. Each
twin names the TF1 class it replaces in ``TF1_CLASS``.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import keras
import tensorflow as tf


class IdWeights(NamedTuple):
    """TF1's ``IdWeightPair``: sparse int64 ids and optional sparse float weights with the same indices."""

    ids: tf.SparseTensor
    weights: tf.SparseTensor | None


def raw_feature(features: dict[str, Any], key: str) -> tf.Tensor:
    """The raw feature as TF1's ``FeatureTransformationCache`` hands it over: rank 1 becomes ``[batch, 1]``."""
    if key not in features:
        raise KeyError(f"feature {key!r} is missing from the inputs (present: {sorted(features)}).")
    tensor = tf.convert_to_tensor(features[key])
    if tensor.shape.rank == 0:
        raise ValueError(f"feature {key!r} is a scalar; feature columns need at least [batch].")
    if tensor.shape.rank == 1:
        tensor = tf.expand_dims(tensor, -1)
    return tensor


def to_sparse_dropping(tensor: tf.Tensor, ignore_value: Any = None) -> tf.SparseTensor:
    """TF1's ``_to_sparse_input_and_drop_ignore_values``: cells equal to "" (strings), -1 (ints) or 0 vanish."""
    if ignore_value is None:
        if tensor.dtype == tf.string:
            ignore_value = ""
        elif tensor.dtype.is_integer:
            ignore_value = -1
        else:
            ignore_value = tensor.dtype.as_numpy_dtype()
    ignore = tf.cast(ignore_value, tensor.dtype)
    indices = tf.where(tf.not_equal(tensor, ignore))
    return tf.SparseTensor(indices=indices, values=tf.gather_nd(tensor, indices),
                           dense_shape=tf.shape(tensor, out_type=tf.int64))


def as_string(values: tf.Tensor) -> tf.Tensor:
    """Strings unchanged, integers through ``as_string`` (what TF1 hashes)."""
    return values if values.dtype == tf.string else tf.strings.as_string(values)


def tf_variable(variable: Any) -> tf.Variable:
    """The `tf.Variable` behind a Keras weight (Keras 3 wraps it; TF1's lookup ops need the variable itself)."""
    return variable if isinstance(variable, tf.Variable) else variable.value


def build_nested(layer: keras.layers.Layer) -> None:
    """Build `layer` inside its parent's `build` under its own name, so its weights are ``<parent>/<layer>/<weight>``.

    Keras 3 opens the layer's name scope around every `build`; Keras 2 only
    when the layer is called, and twins are used through their methods, so
    here the scope is opened by hand.
    """
    if layer.built:
        return
    if keras.__version__.startswith("3"):
        layer.build(None)
        return
    with tf.name_scope(layer.name):
        layer.build(None)


class FeatureTwin(keras.layers.Layer):
    """A feature-column twin: a Keras layer whose `name` is the TF1 column's name."""

    TF1_CLASS = ""
    """The TF1 feature-column class this twin replaces (``tf.feature_column.numeric_column`` → ``NumericColumn``)."""

    def __init__(self, name: str, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self.column_name = name

    def build(self, input_shape: Any = None) -> None:
        self.built = True


class CategoricalFeature(FeatureTwin):
    """Raw features → sparse ids (`IdWeights`); `num_buckets` is the id range, as in TF1."""

    num_buckets: int

    def sparse_ids(self, features: dict[str, Any]) -> IdWeights:
        raise NotImplementedError

    def call(self, features: dict[str, Any]) -> tf.Tensor:
        """Standalone use: the ids as a dense [batch, n] int64 tensor, -1 where TF1 has no id."""
        ids = self.sparse_ids(features).ids
        return tf.sparse.to_dense(ids, default_value=-1)


class DenseFeature(FeatureTwin):
    """Raw features → a float32 tensor; `num_elements` values per example (what `DenseFeatures` reshapes to)."""

    num_elements: int

    def dense(self, features: dict[str, Any]) -> tf.Tensor:
        raise NotImplementedError

    def call(self, features: dict[str, Any]) -> tf.Tensor:
        return self.dense(features)
