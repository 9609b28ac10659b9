"""`DenseFeatures`: the twin of ``DenseFeatures``/``input_layer``, the input layer of canned DNN models.

TF1 sorts the columns by name (whatever order you list them in), takes each
column's dense tensor, reshapes it to ``[batch, num_elements]`` and
concatenates along axis 1; this layer does the same with the twins. The
canned DNN estimators name it ``input_layer`` (variables under
``dnn/input_from_feature_columns/input_layer/<column>/``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import keras
import tensorflow as tf

from modern.feature_columns.base import FeatureTwin, build_nested


class DenseFeatures(keras.layers.Layer):
    """Concatenates the dense twins in `columns`, sorted by name, as ``[batch, Σ num_elements]`` float32."""

    def __init__(self, columns: Sequence[FeatureTwin], name: str = "input_layer", **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        missing = [column.name for column in columns if not hasattr(column, "dense")]
        if missing:
            raise ValueError(f"{name}: {missing} have no dense output; wrap a categorical column in "
                             "Embedding or Indicator (as TF1's DenseFeatures requires).")
        self.columns = sorted(columns, key=lambda column: column.name)

    def build(self, input_shape: Any = None) -> None:
        for column in self.columns:
            table = getattr(column, "table", None)
            if table is not None:  # a shared table lives once, beside the columns: input_layer/<table>/...
                build_nested(table)
            build_nested(column)
        self.built = True

    def call(self, features: dict[str, Any]) -> tf.Tensor:
        outputs = []
        for column in self.columns:
            tensor = column.dense(features)
            outputs.append(tf.reshape(tensor, (tf.shape(tensor)[0], column.num_elements)))
        return tf.concat(outputs, 1)
