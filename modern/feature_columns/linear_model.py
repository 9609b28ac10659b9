"""`LinearModel`: the twin of the canned linear estimators' ``LinearModel`` (``linear/linear_model``).

For each column, sorted by name, TF1 makes a weight ``<column>/weights`` of
shape ``[num_buckets or num_elements, units]`` (zeros) and computes a
weighted sum: a categorical column through ``safe_embedding_lookup_sparse``
with ``sparse_combiner`` (its ids reshaped to ``[batch, -1]``), a dense
column as ``matmul``; then ``add_n`` of the sums in that order and
``bias_add`` of ``bias_weights``. This layer runs the same ops in the same
order, so the logits agree bit for bit.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import keras
import tensorflow as tf

from modern.feature_columns.base import CategoricalFeature, FeatureTwin, build_nested, tf_variable


class ColumnWeights(keras.layers.Layer):
    """The ``<column>/weights`` variable of one linear column."""

    def __init__(self, name: str, rows: int, units: int, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self.rows, self.units = int(rows), int(units)

    def build(self, input_shape: Any = None) -> None:
        self.weights_variable = self.add_weight(name="weights", shape=(self.rows, self.units), initializer="zeros")
        self.built = True


class LinearModel(keras.layers.Layer):
    """``units`` linear logits over `columns` (categorical or dense twins), TF1's ``sparse_combiner``."""

    def __init__(self, columns: Sequence[FeatureTwin], units: int = 1, sparse_combiner: str = "sum",
                 name: str = "linear_model", **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        if sparse_combiner not in ("mean", "sqrtn", "sum"):
            raise ValueError(f"{name}: sparse_combiner is {sparse_combiner!r}; TF1 knows 'mean', 'sqrtn' and 'sum'.")
        self.columns = sorted(columns, key=lambda column: column.name)
        self.units, self.sparse_combiner = int(units), sparse_combiner
        self.column_weights = [
            ColumnWeights(column.name, column.num_buckets if _is_categorical(column) else column.num_elements, units)
            for column in self.columns]

    def build(self, input_shape: Any = None) -> None:
        for column, weights in zip(self.columns, self.column_weights):
            build_nested(column)
            build_nested(weights)
        self.bias = self.add_weight(name="bias_weights", shape=(self.units,), initializer="zeros")
        self.built = True

    def call(self, features: dict[str, Any]) -> tf.Tensor:
        weighted_sums = []
        for column, weights in zip(self.columns, self.column_weights):
            variable = tf_variable(weights.weights_variable)
            if _is_categorical(column):
                pair = column.sparse_ids(features)
                ids = tf.sparse.reshape(pair.ids, [tf.shape(pair.ids, out_type=tf.int64)[0], -1])
                sparse_weights = pair.weights
                if sparse_weights is not None:
                    sparse_weights = tf.sparse.reshape(
                        sparse_weights, [tf.shape(sparse_weights, out_type=tf.int64)[0], -1])
                weighted_sums.append(tf.nn.safe_embedding_lookup_sparse(
                    variable, ids, sparse_weights, combiner=self.sparse_combiner))
            else:
                tensor = column.dense(features)
                tensor = tf.reshape(tensor, (tf.shape(tensor)[0], column.num_elements))
                weighted_sums.append(tf.matmul(tensor, variable))
        return tf.nn.bias_add(tf.add_n(weighted_sums), tf_variable(self.bias))


def _is_categorical(column: FeatureTwin) -> bool:
    """TF1 treats a column that is categorical (even if also dense, as bucketized) as categorical here."""
    return isinstance(column, CategoricalFeature)
