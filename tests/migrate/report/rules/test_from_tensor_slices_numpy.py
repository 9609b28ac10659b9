"""`from-tensor-slices-numpy` (TFM403): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM403"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\ntf.data.Dataset.from_tensor_slices(tf.range(10))\n', id='a tensor argument'),
        pytest.param("import tensorflow as tf\ntf.data.Dataset.from_tensor_slices(['a.tfrecord'])\n", id='a file list'),
        pytest.param('import tensorflow as tf\nx = tf.placeholder(tf.float32)\ntf.data.Dataset.from_tensor_slices(x)\n', id='a placeholder (the TF1 workaround)'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("import numpy as np\nimport tensorflow as tf\nimages = np.load('x.npy')\ntf.data.Dataset.from_tensor_slices(images)\n", [4], id='numpy array name'),
        pytest.param('import tensorflow as tf\n(x, y), _ = tf.keras.datasets.mnist.load_data()\ntf.data.Dataset.from_tensor_slices((x, y))\n', [3], id='tuple of load_data arrays'),
        pytest.param("import numpy as np\nimport tensorflow as tf\ntf.compat.v1.data.Dataset.from_tensor_slices({'x': np.zeros((3, 2))})\n", [3], id='inline numpy call in a dict'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
