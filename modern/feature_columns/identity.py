"""`Identity`: the twin of ``categorical_column_with_identity`` (``IdentityCategoricalColumn``).

The integer value is the id; -1 means missing (dropped). With a
``default_value``, ids outside ``[0, num_buckets)`` become it, as in TF1;
without one TF1 passes them through (and a later lookup fails), and so does
this layer.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.feature_columns.base import CategoricalFeature, IdWeights, raw_feature, to_sparse_dropping


class Identity(CategoricalFeature):
    """Integer feature `key` used as its own id in ``[0, num_buckets)``."""

    TF1_CLASS = "IdentityCategoricalColumn"

    def __init__(self, key: str, num_buckets: int, default_value: int | None = None, **kwargs: Any) -> None:
        super().__init__(name=key, **kwargs)
        self.key, self.num_buckets, self.default_value = key, int(num_buckets), default_value

    def sparse_ids(self, features: dict[str, Any]) -> IdWeights:
        raw = to_sparse_dropping(raw_feature(features, self.key))
        if not raw.dtype.is_integer:
            raise ValueError(f"{self.name}: identity ids must be integers, got {raw.dtype.name}.")
        values = tf.cast(raw.values, tf.int64)
        if self.default_value is not None:
            num_buckets, zero = tf.cast(self.num_buckets, tf.int64), tf.cast(0, tf.int64)
            values = tf.where(tf.logical_or(values < zero, values >= num_buckets),
                              tf.fill(tf.shape(values), tf.cast(self.default_value, tf.int64)), values)
        return IdWeights(tf.SparseTensor(raw.indices, values, raw.dense_shape), None)
