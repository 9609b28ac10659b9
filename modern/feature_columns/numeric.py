"""`Numeric`: the twin of ``tf.feature_column.numeric_column`` (``NumericColumn``).

TF1 applies ``normalizer_fn`` to the raw tensor and then casts to float32;
so does this layer, with the same function. A ``normalizer_fn`` is any
function of one tensor built from TensorFlow ops (traceable); one that
divides by a constant may differ by 1 ulp from the TF1 Session, whose graph
optimizer turns the division into a multiplication by the reciprocal.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

from modern.feature_columns.base import DenseFeature, raw_feature


class Numeric(DenseFeature):
    """A numeric feature, optionally normalised, as float32 of shape ``[batch, *shape]``.

    Args:
        key: the feature's key (and the column's name).
        shape: the per-example shape (TF1's ``shape``, default ``(1,)``).
        normalizer_fn: TF1's ``normalizer_fn`` (a function of one tensor) or None.
    """

    TF1_CLASS = "NumericColumn"

    def __init__(self, key: str, shape: Sequence[int] = (1,),
                 normalizer_fn: Callable[[tf.Tensor], tf.Tensor] | None = None, **kwargs: Any) -> None:
        super().__init__(name=key, **kwargs)
        self.key, self.shape_per_example, self.normalizer_fn = key, tuple(int(n) for n in shape), normalizer_fn
        self.num_elements = math.prod(self.shape_per_example)

    def dense(self, features: dict[str, Any]) -> tf.Tensor:
        tensor = raw_feature(features, self.key)
        if self.normalizer_fn is not None:
            tensor = self.normalizer_fn(tensor)
        return tf.cast(tensor, tf.float32)
