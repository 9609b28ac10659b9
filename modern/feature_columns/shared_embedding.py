"""`SharedEmbedding` + `SharedEmbeddingTable`: the twins of ``tf.feature_column.shared_embeddings``.

One table (`SharedEmbeddingTable`, TF1's ``SharedEmbeddingColumnCreator``
variable, named ``<sorted column names>_shared_embedding`` unless
``shared_embedding_collection_name`` is given) and one `SharedEmbedding`
per categorical column (``<column>_shared_embedding``), each looking its own
ids up in the shared table as `Embedding` does.
"""
from __future__ import annotations

import math
from typing import Any

import keras
import tensorflow as tf

from modern.feature_columns.base import CategoricalFeature, DenseFeature
from modern.feature_columns.embedding import combine


class SharedEmbeddingTable(keras.layers.Layer):
    """The table several `SharedEmbedding` columns share: ``[num_buckets, dimension]``."""

    def __init__(self, name: str, num_buckets: int, dimension: int, initializer: Any = None,
                 trainable: bool = True, **kwargs: Any) -> None:
        super().__init__(name=name, trainable=trainable, **kwargs)
        self.num_buckets, self.dimension = int(num_buckets), int(dimension)
        self.initializer = initializer or keras.initializers.TruncatedNormal(stddev=1 / math.sqrt(self.dimension))

    def build(self, input_shape: Any = None) -> None:
        self.embedding_weights = self.add_weight(
            name="embedding_weights", shape=(self.num_buckets, self.dimension),
            initializer=self.initializer, trainable=self.trainable)
        self.built = True


class SharedEmbedding(DenseFeature):
    """`categorical`'s ids looked up in `table` (a `SharedEmbeddingTable`) with `combiner`."""

    TF1_CLASS = "SharedEmbeddingColumn"

    def __init__(self, categorical: CategoricalFeature, table: SharedEmbeddingTable, combiner: str = "mean",
                 max_norm: float | None = None, use_safe_embedding_lookup: bool = True, **kwargs: Any) -> None:
        super().__init__(name=f"{categorical.name}_shared_embedding", **kwargs)
        if categorical.num_buckets != table.num_buckets:
            raise ValueError(f"{self.name}: {categorical.num_buckets} buckets, but the shared table has "
                             f"{table.num_buckets}; TF1 requires equal bucket counts.")
        self.categorical, self.table, self.combiner = categorical, table, combiner
        self.max_norm, self.use_safe_embedding_lookup = max_norm, use_safe_embedding_lookup
        self.num_elements = table.dimension

    def dense(self, features: dict[str, Any]) -> tf.Tensor:
        if not self.table.built:
            self.table.build()
        return combine(self.table.embedding_weights, self.categorical.sparse_ids(features), self.combiner,
                       self.max_norm, self.use_safe_embedding_lookup)
