"""`Weighted`: the twin of ``weighted_categorical_column`` (``WeightedCategoricalColumn``).

The ids of the categorical twin, and weights from the feature
`weight_feature_key` with its zeros dropped (TF1 sparsifies a dense weight
tensor with ignore value 0.0).
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.feature_columns.base import CategoricalFeature, IdWeights, raw_feature, to_sparse_dropping


class Weighted(CategoricalFeature):
    """`categorical`'s ids weighted by the float feature `weight_feature_key`."""

    TF1_CLASS = "WeightedCategoricalColumn"

    def __init__(self, categorical: CategoricalFeature, weight_feature_key: str,
                 weight_dtype: tf.DType | str = tf.float32, **kwargs: Any) -> None:
        super().__init__(name=f"{categorical.name}_weighted_by_{weight_feature_key}", **kwargs)
        self.categorical, self.weight_feature_key = categorical, weight_feature_key
        self.weight_dtype = tf.as_dtype(weight_dtype)
        self.num_buckets = categorical.num_buckets

    def sparse_ids(self, features: dict[str, Any]) -> IdWeights:
        weights = raw_feature(features, self.weight_feature_key)
        if weights.dtype != self.weight_dtype:
            raise ValueError(f"{self.name}: weights must be {self.weight_dtype.name}, got {weights.dtype.name}.")
        weights = to_sparse_dropping(weights, ignore_value=0.0)
        if not weights.dtype.is_floating:
            weights = tf.SparseTensor(weights.indices, tf.cast(weights.values, tf.float32), weights.dense_shape)
        return IdWeights(self.categorical.sparse_ids(features).ids, weights)
