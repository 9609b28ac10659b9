"""`contrib` (TFM501): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM501"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nfrom django.contrib import admin\nadmin.site\n', id='a module named contrib elsewhere'),
        pytest.param('import tensorflow as tf\n# tf.contrib.layers\n', id='the word in a comment'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.contrib.layers.fully_connected(x, 10)\n', [2], id='literal tf.contrib'),
        pytest.param('import tensorflow.contrib.slim as slim\nslim.conv2d(x, 3, 3)\n', [1], id='import as alias: its uses are covered by the import'),
        pytest.param('from tensorflow.contrib import slim\n', [1], id='from-import'),
        pytest.param('from tensorflow.contrib.learn.python.learn import learn_runner\n', [1], id='from-import of a contrib submodule'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]


@pytest.mark.parametrize(
    ("source", "home"),
    [
        pytest.param("nest = tf.contrib.framework.nest\n", "its TF2 home is `tf.nest`", id="a member with its own home"),
        pytest.param("w = tf.contrib.summary.create_file_writer(d)\n", "`tf.summary.create_file_writer`", id="a module's home"),
        pytest.param("r = tf.contrib.layers.l2_regularizer(0.1)\n", "`keras.regularizers.L2(scale / 2)`", id="l2 halves"),
        pytest.param("x = tf.contrib.foo.bar()\n", "replace it with its TF2 home (Keras layers", id="no known home"),
    ],
)
def test_message_names_the_tf2_home(source: str, home: str, messages) -> None:
    [message] = messages(f"import tensorflow as tf\n{source}", CODE)
    assert home in message


def test_an_import_names_the_home_of_what_it_imports(messages) -> None:
    [message] = messages("import tensorflow.contrib.rnn as rnn\n", CODE)
    assert "`keras.layers.LSTMCell`" in message
