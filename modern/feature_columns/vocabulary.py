"""Vocabulary lookups shared by `VocabularyList` and `VocabularyFile`: TF1's ``index_table_from_*`` ids.

TF1 numbers the vocabulary ``0 .. n-1`` and sends an unknown value to
``n + Fingerprint64(value) % num_oov_buckets`` (``string_to_hash_bucket_fast``
of the value, integers first turned into strings), or to ``default_value``
(-1 by default: no id, dropped downstream) when there are no OOV buckets.
Keras' `StringLookup`/`IntegerLookup` put their OOV indices *before* the
vocabulary, so their ids are a permutation of these; this layer keeps TF1's.
Empty strings and -1 never reach the table: TF1 drops them first.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.feature_columns.base import CategoricalFeature, IdWeights, as_string, raw_feature, to_sparse_dropping


class VocabularyLookup(CategoricalFeature):
    """A key looked up in a table built by `make_table`, with TF1's OOV buckets or default value."""

    def __init__(self, key: str, vocabulary_size: int, num_oov_buckets: int = 0, default_value: int = -1,
                 key_dtype: tf.DType | str = tf.string, **kwargs: Any) -> None:
        super().__init__(name=key, **kwargs)
        self.key, self.num_oov_buckets, self.default_value = key, int(num_oov_buckets), int(default_value)
        self.key_dtype = tf.as_dtype(key_dtype)
        self.table_key_dtype = tf.int64 if self.key_dtype.is_integer else self.key_dtype
        self.vocabulary_size = int(vocabulary_size)
        self.num_buckets = self.vocabulary_size + self.num_oov_buckets
        self.table = self.make_table()

    def make_table(self) -> tf.lookup.StaticHashTable:
        raise NotImplementedError

    def lookup(self, values: tf.Tensor) -> tf.Tensor:
        if self.table_key_dtype == tf.int64:
            values = tf.cast(values, tf.int64)
        ids = self.table.lookup(values)
        if not self.num_oov_buckets:
            return ids
        buckets = tf.strings.to_hash_bucket_fast(as_string(values), self.num_oov_buckets)
        buckets = tf.add(buckets, self.table.size())
        return tf.where(tf.not_equal(ids, self.default_value), ids, buckets)

    def sparse_ids(self, features: dict[str, Any]) -> IdWeights:
        raw = to_sparse_dropping(raw_feature(features, self.key))
        if raw.dtype.is_integer:
            raw = tf.SparseTensor(raw.indices, tf.cast(raw.values, tf.int64), raw.dense_shape)
        return IdWeights(tf.SparseTensor(raw.indices, self.lookup(raw.values), raw.dense_shape), None)
