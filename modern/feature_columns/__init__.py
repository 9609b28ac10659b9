"""Keras twins of TF1's feature columns, one file per column kind, each exact (same ops, same order).

A twin is a Keras layer named like the TF1 column; `DenseFeatures` (the
canned DNN input layer) and `LinearModel` (the canned linear model) combine
them as TF1 does. `TWINS` maps each TF1 feature-column class name to its twin
(`migrate port` reads it); a TF1 column with no entry has no exact twin.

Columns with no twin, and why: the sequence columns
(``sequence_categorical_column_*``, ``sequence_numeric_column``) feed only
``SequenceFeatures``/RNN estimators, which no canned DNN or linear estimator
takes; TF1's v1-only ``_SharedEmbeddingColumn`` from
``tf.compat.v1.feature_column.shared_embedding_columns`` keeps its table in a
graph collection (use the v2 ``tf.feature_column.shared_embeddings``, whose
twin is `SharedEmbedding`).
"""
from __future__ import annotations

from modern.feature_columns.base import CategoricalFeature, DenseFeature, FeatureTwin, IdWeights
from modern.feature_columns.bucketized import Bucketized
from modern.feature_columns.crossed import Crossed
from modern.feature_columns.dense_features import DenseFeatures
from modern.feature_columns.embedding import Embedding
from modern.feature_columns.hash_bucket import HashBucket
from modern.feature_columns.identity import Identity
from modern.feature_columns.indicator import Indicator
from modern.feature_columns.linear_model import LinearModel
from modern.feature_columns.numeric import Numeric
from modern.feature_columns.shared_embedding import SharedEmbedding, SharedEmbeddingTable
from modern.feature_columns.vocabulary_file import VocabularyFile
from modern.feature_columns.vocabulary_list import VocabularyList
from modern.feature_columns.weighted import Weighted

TWINS: dict[str, type[FeatureTwin]] = {
    twin.TF1_CLASS: twin
    for twin in (Numeric, Bucketized, VocabularyList, VocabularyFile, Identity, HashBucket, Crossed, Weighted,
                 Embedding, SharedEmbedding, Indicator)
}
"""TF1 feature-column class name → its exact Keras twin."""

__all__ = [
    "TWINS", "Bucketized", "CategoricalFeature", "Crossed", "DenseFeature", "DenseFeatures", "Embedding",
    "FeatureTwin", "HashBucket", "IdWeights", "Identity", "Indicator", "LinearModel", "Numeric", "SharedEmbedding",
    "SharedEmbeddingTable", "VocabularyFile", "VocabularyList", "Weighted",
]
