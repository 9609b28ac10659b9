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
        pytest.param(
            TF1 + "ce = tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(y), logits=z)\n",
            id="softmax cross-entropy with labels already cut from the gradient",
        ),
        pytest.param(
            TF1 + "words = tf.compat.v1.strings.split(lines, sep=' ')\n", id="TF1's strings.split by choice",
        ),
        pytest.param(
            TF1 + "ce = tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z)\n",
            id="sigmoid cross-entropy by keyword: the same in TF2",
        ),
        pytest.param(
            TF1 + "ce = tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(y, 10), logits=z)\n",
            id="softmax cross-entropy with one-hot labels",
        ),
        pytest.param(
            TF1 + "ce = tf.compat.v1.nn.softmax_cross_entropy_with_logits(labels=y, logits=z)\n",
            id="TF1's softmax cross-entropy by choice",
        ),
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
        pytest.param(
            TF1 + "ce = tf.nn.softmax_cross_entropy_with_logits(labels=label, logits=logits)\n", [3],
            id="softmax cross-entropy: TF2's back-propagates into labels",
        ),
        pytest.param(
            TF1 + "words = tf.strings.split(tf.reshape(caption, [1]), sep=' ')\n", [3],
            id="strings.split returns a RaggedTensor in TF2",
        ),
        pytest.param(
            TF1 + "loss = tf.nn.sparse_softmax_cross_entropy_with_logits(logits, y)\n", [3],
            id="TF 0.x cross-entropy with (logits, labels) by position: swapped in TF2",
        ),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]


@pytest.mark.parametrize(
    ("source", "advice"),
    [
        pytest.param("loss = tf.losses.mean_squared_error(y, p)\n", "`keras.losses.MeanSquaredError()`", id="TF1 MSE loss"),
        pytest.param("r = tf.losses.Reduction.MEAN\n", 'reduction="sum_over_batch_size"', id="TF1 loss reductions"),
        pytest.param("ctc = tf.nn.ctc_loss\n", "`blank_index=-1`", id="ctc_loss"),
    ],
)
def test_advice_says_what_tf2s_function_is(source: str, advice: str, messages) -> None:
    [message] = messages(TF1 + source, CODE)
    assert advice in message
