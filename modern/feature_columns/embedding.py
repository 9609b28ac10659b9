"""`Embedding`: the twin of ``tf.feature_column.embedding_column`` (``EmbeddingColumn``).

The lookup is TF1's own: ``safe_embedding_lookup_sparse`` (invalid ids and
zero-weight cells pruned, empty rows → zeros) with the column's combiner —
``"mean"`` (default), ``"sqrtn"`` or ``"sum"`` — and ``max_norm``. The weight
is called ``embedding_weights`` as in TF1 and starts from TF1's default
initializer, a truncated normal with stddev ``1/sqrt(dimension)``.
Keras' `Embedding` takes one id per position and has no combiner; for
single-valued features with no missing value it computes the same rows.
"""
from __future__ import annotations

import math
from typing import Any

import keras
import tensorflow as tf

from modern.feature_columns.base import CategoricalFeature, DenseFeature, IdWeights, tf_variable


def combine(table: tf.Variable | tf.Tensor, ids: IdWeights, combiner: str, max_norm: float | None = None,
            use_safe_embedding_lookup: bool = True) -> tf.Tensor:
    """TF1's choice of lookup: the safe one unless switched off (then the plain one for rank ≤ 2 ids)."""
    table = tf_variable(table)
    rank = ids.ids.dense_shape.shape[0]
    if not use_safe_embedding_lookup and rank is not None and rank <= 2:
        return tf.nn.embedding_lookup_sparse(table, ids.ids, ids.weights, combiner=combiner, max_norm=max_norm)
    return tf.nn.safe_embedding_lookup_sparse(table, ids.ids, ids.weights, combiner=combiner, max_norm=max_norm)


class Embedding(DenseFeature):
    """A `dimension`-wide embedding of `categorical`'s ids, combined per example with `combiner`.

    Args:
        categorical: the categorical twin (ids and optional weights).
        dimension, combiner, max_norm, trainable, use_safe_embedding_lookup: TF1's arguments.
        initializer: a Keras initializer (default TF1's truncated normal, stddev 1/sqrt(dimension)).
    """

    TF1_CLASS = "EmbeddingColumn"

    def __init__(self, categorical: CategoricalFeature, dimension: int, combiner: str = "mean",
                 initializer: Any = None, max_norm: float | None = None, trainable: bool = True,
                 use_safe_embedding_lookup: bool = True, **kwargs: Any) -> None:
        super().__init__(name=f"{categorical.name}_embedding", trainable=trainable, **kwargs)
        if combiner not in ("mean", "sqrtn", "sum"):
            raise ValueError(f"{self.name}: combiner is {combiner!r}; TF1 knows 'mean', 'sqrtn' and 'sum'.")
        self.categorical, self.dimension, self.combiner = categorical, int(dimension), combiner
        self.max_norm, self.use_safe_embedding_lookup = max_norm, use_safe_embedding_lookup
        self.initializer = initializer or keras.initializers.TruncatedNormal(stddev=1 / math.sqrt(self.dimension))
        self.num_elements = self.dimension

    def build(self, input_shape: Any = None) -> None:
        self.embedding_weights = self.add_weight(
            name="embedding_weights", shape=(self.categorical.num_buckets, self.dimension),
            initializer=self.initializer, trainable=self.trainable)
        self.built = True

    def dense(self, features: dict[str, Any]) -> tf.Tensor:
        if not self.built:
            self.build()
        return combine(self.embedding_weights, self.categorical.sparse_ids(features), self.combiner,
                       self.max_norm, self.use_safe_embedding_lookup)
