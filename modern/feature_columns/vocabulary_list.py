"""`VocabularyList`: the twin of ``categorical_column_with_vocabulary_list`` (``VocabularyListCategoricalColumn``).

Ids as TF1 gives them (see `modern.feature_columns.vocabulary`): the list's
order, then the OOV buckets.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tensorflow as tf

from modern.feature_columns.vocabulary import VocabularyLookup


class VocabularyList(VocabularyLookup):
    """`key` looked up in `vocabulary` (strings or integers).

    Args:
        key, vocabulary, num_oov_buckets, default_value: TF1's arguments.
        key_dtype: TF1's ``dtype`` (strings unless the vocabulary is integers).
    """

    TF1_CLASS = "VocabularyListCategoricalColumn"

    def __init__(self, key: str, vocabulary: Sequence[Any], num_oov_buckets: int = 0, default_value: int = -1,
                 key_dtype: tf.DType | str | None = None, **kwargs: Any) -> None:
        self.vocabulary = tuple(vocabulary)
        if key_dtype is None:
            key_dtype = tf.int64 if all(isinstance(word, int) for word in self.vocabulary) else tf.string
        super().__init__(key, len(self.vocabulary), num_oov_buckets, default_value, key_dtype, **kwargs)

    def make_table(self) -> tf.lookup.StaticHashTable:
        keys = tf.constant(self.vocabulary, dtype=self.table_key_dtype)
        values = tf.cast(tf.range(tf.size(keys)), tf.int64)
        initializer = tf.lookup.KeyValueTensorInitializer(keys, values, self.table_key_dtype, tf.int64)
        return tf.lookup.StaticHashTable(initializer, self.default_value)
