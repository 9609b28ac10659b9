"""`changed-arguments` (TFM516): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM516"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\ntf.reduce_sum(x, axis=1, keepdims=True)\n", id="TF2 keywords"),
        pytest.param("import tensorflow as tf\ntf.nn.dropout(x, rate=0.1)\n", id="dropout by keyword"),
        pytest.param("import tensorflow as tf\ntf.argmax(x, 1)\n", id="positional arguments that kept their meaning"),
        pytest.param("import numpy as np\nnp.sum(x, keep_dims=True)\n", id="not TensorFlow"),
        pytest.param("from tensorflow.python.ops import math_ops\nmath_ops.reduce_sum(x, keep_dims=True)\n", id="private module"),
        pytest.param(
            "import tensorflow as tf\ntf.compat.v1.nn.ctc_loss(labels=y, inputs=x, sequence_length=n)\n",
            id="a function TF2 replaced, kept as TF1's through compat.v1",
        ),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("import tensorflow as tf\ntf.reduce_mean(x,\n    keep_dims=True)\n", [3], id="keep_dims, at the keyword"),
        pytest.param("import tensorflow as tf\ntf.nn.dropout(x, 0.5)\n", [2], id="dropout's keep_prob by position"),
        pytest.param("import tensorflow as tf\ntf.gradients(y, x, colocate_gradients_with_ops=True)\n", [2], id="dropped keyword"),
        pytest.param("import tensorflow.compat.v1 as tf\ntf.argmax(x, dimension=1)\n", [2], id="through compat.v1"),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]


def test_messages_name_the_tf2_keyword_or_the_position(messages) -> None:
    source = "import tensorflow as tf\ntf.reduce_sum(x, keep_dims=True)\ntf.nn.dropout(x, 0.9)\n"
    renamed, positional = messages(source, CODE)
    assert renamed == "`keep_dims=` is not a parameter of TF2's `tf.reduce_sum`: it is `keepdims=` there"
    assert positional.startswith("positional argument 2 of `tf.nn.dropout` means another parameter in TF2")


def test_a_keyword_of_a_function_tf2_replaced_is_not_to_be_dropped(messages) -> None:
    source = "import tensorflow as tf\nloss = tf.nn.ctc_loss(labels=y, inputs=logits, sequence_length=n)\n"
    inputs, sequence_length = messages(source, CODE)
    assert inputs.startswith("`inputs=` is not a parameter of TF2's `tf.nn.ctc_loss`: TF2's `tf.nn.ctc_loss` is another")
    assert "`tf.compat.v1.nn.ctc_loss`" in sequence_length and "drop it" not in sequence_length


def test_a_function_whose_parameters_all_moved_says_so(messages) -> None:
    [message] = messages("import tensorflow as tf\nhit = tf.nn.in_top_k(logits, labels, 1)\n", CODE)
    assert message == (
        "positional argument 1 of `tf.nn.in_top_k` means another parameter in TF2 "
        "(TF2 takes its parameters in another order): pass it by keyword"
    )


def test_dropout_keep_prob_says_how_to_convert_it(messages) -> None:
    [message] = messages("import tensorflow as tf\nh = tf.nn.dropout(h, keep_prob=0.9)\n", CODE)
    assert message.endswith("TF2 takes `rate=`, the fraction dropped: pass `rate=1 - keep_prob`")


def test_a_positional_argument_of_a_function_tf2_replaced_is_not_to_be_passed_by_keyword(messages) -> None:
    [message] = messages("import tensorflow as tf\nloss = tf.nn.ctc_loss(y, x, n)\n", CODE)
    assert "TF2's `tf.nn.ctc_loss` is another function" in message and "pass it by keyword" not in message


def test_a_tf1_tflite_converter_says_how_tf2_builds_one(messages) -> None:
    source = "import tensorflow as tf\nc = tf.lite.TFLiteConverter(graph, input_tensors=ins, output_tensors=outs)\n"
    inputs, outputs = messages(source, CODE)
    assert "`tf.lite.TFLiteConverter.from_saved_model`" in inputs and inputs.endswith("`tf.compat.v1.lite.TFLiteConverter`")
    assert "drop it" not in outputs


def test_unpacked_keywords_to_a_function_whose_keywords_changed_are_to_be_checked(messages) -> None:
    [message] = messages("import tensorflow as tf\ny = tf.nn.conv2d(x, k, s, 'SAME', **kwargs)\n", CODE)
    assert message == (
        "`**` passes keywords to `tf.nn.conv2d` that TF2's may not take: check it holds none of "
        "`filter` (`filters` in TF2), `use_cudnn_on_gpu`"
    )


def test_unpacked_keywords_add_nothing_where_the_call_already_has_a_finding(messages) -> None:
    [message] = messages("import tensorflow as tf\ny = tf.nn.dropout(x, keep_prob, **kwargs)\n", CODE)
    assert message.startswith("positional argument 2 of `tf.nn.dropout`")
