"""`moved-api` (TFM515): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM515"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\ntf.io.gfile.exists(p)\n", id="the TF2 name"),
        pytest.param("import tensorflow as tf\ntf.log(x)\n", id="the same function (TFM513's)"),
        pytest.param("from tensorflow.python.platform import gfile\ngfile.Exists(p)\n", id="a private module"),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("import tensorflow as tf\ntf.gfile.Exists(p)\n", [2], id="tf.gfile.Exists"),
        pytest.param("from tensorflow import gfile\ngfile.MakeDirs(p)\n", [2], id="through an imported module"),
        pytest.param("import tensorflow.compat.v1 as tf\ni = tf.arg_max(x, 1)\n", [2], id="through compat.v1"),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]


def test_message_says_the_function_differs(messages) -> None:
    [message] = messages("import tensorflow as tf\nn = tf.count_nonzero(x)\n", CODE)
    assert "tf_upgrade_v2 writes `tf.math.count_nonzero`, which is not the same function" in message


@pytest.mark.parametrize(
    ("source", "difference"),
    [
        pytest.param("tf.gfile.Exists(p)", "the same operation (TF1's function calls it), with other keyword names", id="gfile"),
        pytest.param("tf.image.resize_images(x, s)", "no `align_corners`", id="resize_images"),
        pytest.param("tf.parse_single_example(s, f, 'n')", "third positional parameter is `example_names`", id="parse"),
        pytest.param("tf.arg_max(x, 1)", "`axis=` for TF1's `dimension=`", id="arg_max"),
    ],
)
def test_message_says_what_differs_where_it_is_known(source: str, difference: str, messages) -> None:
    [message] = messages(f"import tensorflow as tf\n{source}\n", CODE)
    assert difference in message
