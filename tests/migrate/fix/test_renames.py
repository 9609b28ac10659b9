"""TFM513's and TFM515's fixes (`migrate.fix.renames`) and the re-alignment of continuation lines (`migrate.fix.alignment`)."""
from __future__ import annotations

import textwrap

import pytest

from migrate.fix.engine import fix_text


def fixed(source: str) -> str:
    return fix_text(textwrap.dedent(source)).text


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\ny = tf.math.log(x)\n", id="already the TF2 name"),
        pytest.param("from tensorflow import log\ny = log(x)\n", id="imported directly: left, its finding stays"),
        pytest.param("import tensorflow as tf\ny = tf.gfile.Exists(filename=p)\n", id="tf.gfile with TF1's keyword name"),
        pytest.param("import tensorflow as tf\nexists = tf.gfile.Exists\n", id="a tf.gfile function not called"),
        pytest.param("import tensorflow as tf\nw = tf.gfile.Walk(top, in_order=False)\n", id="Walk's in_order"),
        pytest.param("import tensorflow as tf\nr = tf.gfile.Remove(**kwargs)\n", id="tf.gfile with **kwargs"),
        pytest.param("import tensorflow as tf\ny = tf.image.resize_images(x, s)\n", id="a moved name whose function differs"),
        pytest.param("import numpy as tf\ny = tf.log(x)\n", id="not TensorFlow"),
        pytest.param("import tensorflow as tf\n\ndef f(tf):\n    return tf.log(x)\n", id="a parameter named tf"),
        pytest.param("import tensorflow as tf\ns = 'tf.log(x)'  # tf.log\n", id="strings and comments"),
    ],
)
def test_noop(source: str) -> None:
    assert fixed(source) == textwrap.dedent(source)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param("import tensorflow as tf\ny = tf.log(x)\n", "import tensorflow as tf\ny = tf.math.log(x)\n", id="tf.log"),
        pytest.param(
            "import tensorflow as tf\nif not tf.gfile.Exists(d):\n    tf.gfile.MakeDirs(d)\ntf.gfile.Copy(a, b, overwrite=True)\n",
            "import tensorflow as tf\nif not tf.io.gfile.exists(d):\n    tf.io.gfile.makedirs(d)\ntf.io.gfile.copy(a, b, overwrite=True)\n",
            id="tf.gfile calls (TFM515): the same operation under tf.io.gfile's names",
        ),
        pytest.param(
            "import tensorflow.compat.v1 as tf\nn = tf.random_normal([3])\n",
            "import tensorflow.compat.v1 as tf\nn = tf.random.normal([3])\n",
            id="tf is compat.v1: the new name is valid there too",
        ),
        pytest.param(
            "import tensorflow as tf\nn = tf.compat.v1.truncated_normal([3])\n",
            "import tensorflow as tf\nn = tf.random.truncated_normal([3])\n",
            id="written through compat.v1: the TF2 name",
        ),
        pytest.param(
            "import tensorflow as tf\nwith tf.gfile.GFile(p) as f, tf.gfile.GFile(q) as g:\n    pass\n",
            "import tensorflow as tf\nwith tf.io.gfile.GFile(p) as f, tf.io.gfile.GFile(q) as g:\n    pass\n",
            id="two on one line",
        ),
        pytest.param(
            "import tensorflow as tf\ny = tf.log(tf.random_uniform([2]))  # é\n",
            "import tensorflow as tf\ny = tf.math.log(tf.random.uniform([2]))  # é\n",
            id="nested, non-ASCII on the line",
        ),
    ],
)
def test_rename(before: str, after: str) -> None:
    assert fixed(before) == after


def test_continuation_lines_aligned_to_the_parenthesis_follow_it() -> None:
    before = """\
        import tensorflow as tf
        noise = tf.random_normal([batch, 10],
                                 stddev=0.1,
                                 dtype=tf.float32)
        """
    after = """\
        import tensorflow as tf
        noise = tf.random.normal([batch, 10],
                                 stddev=0.1,
                                 dtype=tf.float32)
        """
    assert fixed(before) == textwrap.dedent(after).replace("                                 ", "                                  ")


def test_hanging_indents_and_multiline_strings_are_left_alone() -> None:
    source = '''\
        import tensorflow as tf
        noise = tf.random_normal(
            [batch, 10], stddev=0.1)
        y = tf.log(x, name="""a
                          b""")
        '''
    expected = textwrap.dedent(source).replace("tf.random_normal(", "tf.random.normal(").replace("tf.log(", "tf.math.log(")
    assert fixed(source) == expected


def test_a_module_move_realigns_its_call() -> None:
    before = """\
        import tensorflow as tf
        tf.logging.info("step %d loss %f",
                        step, loss)
        """
    after = """\
        from absl import logging
        import tensorflow as tf
        logging.info("step %d loss %f",
                     step, loss)
        """
    assert fixed(before) == textwrap.dedent(after)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(
            "import tensorflow as tf\ns = tf.reduce_sum(x, reduction_indices=1, keep_dims=True)\n",
            "import tensorflow as tf\ns = tf.reduce_sum(x, axis=1, keepdims=True)\n",
            id="keep_dims and reduction_indices: TF1's reduce_sum takes the new names too",
        ),
        pytest.param(
            "import tensorflow as tf\ni = tf.argmax(x, dimension=1)\n",
            "import tensorflow as tf\ni = tf.argmax(x, axis=1)\n",
            id="argmax's dimension",
        ),
    ],
)
def test_keyword_rename(before: str, after: str) -> None:
    assert fixed(before) == after


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\ntf.gradients(y, x, colocate_gradients_with_ops=True)\n", id="dropped: no new name"),
        pytest.param("import tensorflow as tf\ntf.nn.dropout(x, 0.9)\n", id="positional meaning changed: left"),
        pytest.param("import tensorflow as tf\ntf.reduce_sum(x, keep_dims=True, keepdims=False)\n", id="both given: left"),
    ],
)
def test_keyword_left(source: str) -> None:
    assert fixed(source) == source
