"""`changed-semantics` (TFM517): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM517"
TF1 = "import tensorflow as tf\nsess = tf.Session()\n"
"""Other TF1 code in the scan: the rule reports only where other rules find some."""


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\npicked = tf.where(mask, a, b)\n", id="TF2 code: no other TF1 finding"),
        pytest.param(TF1 + "picked = tf.compat.v1.where(mask, a, b)\n", id="TF1's function by choice"),
        pytest.param("import tensorflow.compat.v1 as tf\nsess = tf.Session()\nw = tf.where(m, a, b)\n", id="tf is compat.v1"),
        pytest.param(TF1 + "init = tf.keras.initializers.GlorotUniform()\n", id="TF2 Keras class"),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param(TF1 + "picked = tf.where(mask, a, b)\n", [3], id="tf.where in TF1 code"),
        pytest.param(TF1 + "init = tf.random_uniform_initializer(-1, 1)\n", [3], id="an initializer"),
        pytest.param(TF1 + "with tf.control_dependencies([tf.assert_equal(a, b)]):\n    pass\n", [3], id="an assert"),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
