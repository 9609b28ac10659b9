"""`VocabularyFile`: the twin of ``categorical_column_with_vocabulary_file`` (``VocabularyFileCategoricalColumn``).

The table reads the file as TF1's ``index_table_from_file`` does: one entry
per line (the whole line, tab as delimiter), the line number as id, the first
`vocabulary_size` lines; then TF1's OOV buckets (see
`modern.feature_columns.vocabulary`).
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.feature_columns.vocabulary import VocabularyLookup


class VocabularyFile(VocabularyLookup):
    """`key` looked up in the lines of `vocabulary_file`.

    Args:
        key, vocabulary_file, vocabulary_size, num_oov_buckets, default_value: TF1's arguments.
        key_dtype: TF1's ``dtype`` (default strings).
    """

    TF1_CLASS = "VocabularyFileCategoricalColumn"

    def __init__(self, key: str, vocabulary_file: str, vocabulary_size: int, num_oov_buckets: int = 0,
                 default_value: int = -1, key_dtype: tf.DType | str = tf.string, **kwargs: Any) -> None:
        self.vocabulary_file = str(vocabulary_file)
        super().__init__(key, vocabulary_size, num_oov_buckets, default_value, key_dtype, **kwargs)

    def make_table(self) -> tf.lookup.StaticHashTable:
        initializer = tf.lookup.TextFileInitializer(
            self.vocabulary_file, self.table_key_dtype, tf.lookup.TextFileIndex.WHOLE_LINE,
            tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER, vocab_size=self.vocabulary_size, delimiter="\t")
        return tf.lookup.StaticHashTable(initializer, self.default_value)
