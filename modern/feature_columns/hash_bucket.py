"""`HashBucket`: the twin of ``categorical_column_with_hash_bucket`` (``HashedCategoricalColumn``).

Id = ``Fingerprint64(value) % hash_bucket_size`` (``string_to_hash_bucket_fast``;
integers hashed as their decimal strings); "" and -1 are dropped first. Keras'
`Hashing(num_bins=hash_bucket_size)` without salt runs the same op on the
same strings; this layer also drops the missing cells, as TF1 does.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.feature_columns.base import CategoricalFeature, IdWeights, as_string, raw_feature, to_sparse_dropping


class HashBucket(CategoricalFeature):
    """Feature `key` (strings or integers) hashed into `hash_bucket_size` ids."""

    TF1_CLASS = "HashedCategoricalColumn"

    def __init__(self, key: str, hash_bucket_size: int, **kwargs: Any) -> None:
        super().__init__(name=key, **kwargs)
        self.key, self.num_buckets = key, int(hash_bucket_size)

    def sparse_ids(self, features: dict[str, Any]) -> IdWeights:
        raw = to_sparse_dropping(raw_feature(features, self.key))
        ids = tf.strings.to_hash_bucket_fast(as_string(raw.values), self.num_buckets)
        return IdWeights(tf.SparseTensor(raw.indices, ids, raw.dense_shape), None)
