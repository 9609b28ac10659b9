"""`Bucketized`: the twin of ``tf.feature_column.bucketized_column`` (``BucketizedColumn``).

Bucket ids come from the same ``Bucketize`` op TF1 uses (values below the
first boundary → 0, at or above the last → ``len(boundaries)``). As a dense
column it is a one-hot ``[batch, dims, len(boundaries) + 1]``; as a
categorical column (linear model, crossing, embedding) its ids are
``bucket + (len(boundaries) + 1) * dim`` with one id per source element.
Keras' `Discretization(bin_boundaries=...)` computes the same bucket ids;
this layer also gives TF1's dense and sparse layouts.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tensorflow as tf

from modern.feature_columns.base import CategoricalFeature, IdWeights
from modern.feature_columns.numeric import Numeric


class Bucketized(CategoricalFeature):
    """Buckets of a `Numeric` source by `boundaries`; dense one-hot via `dense`, ids via `sparse_ids`."""

    TF1_CLASS = "BucketizedColumn"

    def __init__(self, source: Numeric, boundaries: Sequence[float], **kwargs: Any) -> None:
        super().__init__(name=f"{source.name}_bucketized", **kwargs)
        if len(source.shape_per_example) != 1:
            raise ValueError(f"{self.name}: the source column must be one-dimensional, got {source.shape_per_example}.")
        self.source, self.boundaries = source, [float(b) for b in boundaries]
        self.depth = len(self.boundaries) + 1
        self.num_buckets = self.depth * source.shape_per_example[0]
        self.num_elements = self.num_buckets

    def buckets(self, features: dict[str, Any]) -> tf.Tensor:
        return tf.raw_ops.Bucketize(input=self.source.dense(features), boundaries=self.boundaries)

    def dense(self, features: dict[str, Any]) -> tf.Tensor:
        return tf.one_hot(tf.cast(self.buckets(features), tf.int64), depth=self.depth, on_value=1.0, off_value=0.0)

    def sparse_ids(self, features: dict[str, Any]) -> IdWeights:
        buckets = self.buckets(features)
        batch_size = tf.shape(buckets)[0]
        source_dimension = self.source.shape_per_example[0]
        i1 = tf.reshape(tf.tile(tf.expand_dims(tf.range(0, batch_size), 1), [1, source_dimension]), (-1,))
        i2 = tf.tile(tf.range(0, source_dimension), [batch_size])
        values = tf.reshape(buckets, (-1,)) + self.depth * i2
        indices = tf.cast(tf.transpose(tf.stack((i1, i2))), tf.int64)
        dense_shape = tf.cast(tf.stack([batch_size, source_dimension]), tf.int64)
        return IdWeights(tf.SparseTensor(indices=indices, values=values, dense_shape=dense_shape), None)
