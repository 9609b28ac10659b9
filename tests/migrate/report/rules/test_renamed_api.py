"""`renamed-api` (TFM513): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM513"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\ny = tf.math.log(x)\n", id="the TF2 name"),
        pytest.param("import tensorflow as tf\nf = tf.io.gfile.GFile(p)\n", id="TF2 spelling of the same class"),
        pytest.param("import tensorflow as tf\nq = tf.queue.FIFOQueue(3, tf.float32)\n", id="tf.queue spelling (TFM305's)"),
        pytest.param("from tensorflow.python.ops import math_ops\nmath_ops.log(x)\n", id="a private module"),
        pytest.param("import numpy as np\nnp.log(x)\n", id="not TensorFlow"),
        pytest.param("import tensorflow as tf\ntf.gfile.Exists(p)\n", id="not the same function (TFM515's)"),
        pytest.param("import tensorflow as tf\nclass H(tf.train.SessionRunHook):\n    pass\n", id="estimator-only home"),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("import tensorflow as tf\ny = tf.log(x)\n", [2], id="tf.log"),
        pytest.param("import tensorflow.compat.v1 as tf\ny = tf.random_normal([3])\n", [2], id="through compat.v1"),
        pytest.param("import tensorflow as tf\nx = tf.manip.reshape(x, [-1])\n", [2], id="a removed module's member"),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]


def test_message_names_the_tf2_name(messages) -> None:
    [message] = messages("import tensorflow as tf\ntf.log(x)\n", CODE)
    assert message.startswith("`tf.log` is gone from TF2; it is `tf.math.log` there (the same API")
