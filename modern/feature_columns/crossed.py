"""`Crossed`: the twin of ``tf.feature_column.crossed_column`` (``CrossedColumn``).

TF1 feeds ``sparse_cross_hashed`` with the raw *dense* tensor of each string
key (so "" is a value that takes part in the cross) and with the sparse ids of
each categorical key, nested crosses flattened to their leaves, with the
column's ``hash_key``; this layer hands the same tensors to the same op. Keras'
`HashedCrossing(num_bins)` computes the same ids when every key is a raw
feature with one value per example and the default hash key.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tensorflow as tf

from modern.feature_columns.base import CategoricalFeature, IdWeights, raw_feature


class Crossed(CategoricalFeature):
    """The hashed cross of `keys` (feature keys or categorical twins, nested `Crossed` allowed).

    Args:
        keys: as TF1's ``keys``, in the same order.
        hash_bucket_size, hash_key: TF1's arguments (``hash_key=None``: TF1's default key).
    """

    TF1_CLASS = "CrossedColumn"

    def __init__(self, keys: Sequence[str | CategoricalFeature], hash_bucket_size: int,
                 hash_key: int | None = None, **kwargs: Any) -> None:
        names = sorted(key if isinstance(key, str) else key.name for key in keys)
        super().__init__(name="_X_".join(names), **kwargs)
        self.keys, self.num_buckets, self.hash_key = list(keys), int(hash_bucket_size), hash_key

    def leaves(self) -> list[str | CategoricalFeature]:
        leaves: list[str | CategoricalFeature] = []
        for key in self.keys:
            leaves.extend(key.leaves() if isinstance(key, Crossed) else [key])
        return leaves

    def sparse_ids(self, features: dict[str, Any]) -> IdWeights:
        tensors = []
        for key in self.leaves():
            if isinstance(key, str):
                tensors.append(raw_feature(features, key))
                continue
            ids = key.sparse_ids(features)
            if ids.weights is not None:
                raise ValueError(f"{self.name}: a crossed column takes no weighted column ({key.name}).")
            tensors.append(ids.ids)
        crossed = tf.sparse.cross_hashed(tensors, num_buckets=self.num_buckets, hash_key=self.hash_key)
        return IdWeights(crossed, None)
