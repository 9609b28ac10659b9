"""`tf-layers` (TFM507): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM507"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\ntf.keras.layers.Dense(3)\n', id='keras layers'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.layers.dense(x, 10)\n', [2], id='tf.layers.dense'),
        pytest.param('import tensorflow as tf\ntf.compat.v1.layers.Conv2D(3, 3)\n', [2], id='compat.v1 layers class'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]


@pytest.mark.parametrize(
    ("member", "keras"),
    [
        pytest.param("conv2d", "Conv2D", id="conv2d"),
        pytest.param("max_pooling2d", "MaxPooling2D", id="max_pooling2d"),
        pytest.param("conv2d_transpose", "Conv2DTranspose", id="conv2d_transpose"),
        pytest.param("batch_normalization", "BatchNormalization", id="batch_normalization"),
        pytest.param("separable_conv1d", "SeparableConv1D", id="separable_conv1d"),
        pytest.param("Conv3DTranspose", "Conv3DTranspose", id="a class keeps its name"),
    ],
)
def test_keras_class_names(member: str, keras: str) -> None:
    from migrate.report.rules.tf_layers import keras_name

    assert keras_name(member) == keras
