"""`v1-summary` (TFM510): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM510"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\ntf.summary.create_file_writer(d)\n', id='TF2 summary writer'),
        pytest.param("import tensorflow as tf\ntf.summary.scalar('loss', l, step=1)\n", id='tf.summary.scalar'),
        pytest.param("import tensorflow as tf\ntf.summary.scalar('loss', l, step)\n", id='TF2 op with a positional step'),
        pytest.param(
            "import tensorflow as tf\nw = tf.summary.create_file_writer(d)\ntf.summary.image('x', x, 30)\n",
            id='TF2 image op with a literal step, in a file that makes a TF2 writer',
        ),
        pytest.param(
            "import tensorflow as tf\ntf.summary.experimental.set_step(s)\ntf.summary.histogram('w', w)\n",
            id='TF2 op under a default step',
        ),
        pytest.param("import tensorflow as tf\ntf.compat.v2.summary.text('t', t)\n", id='through compat.v2'),
        pytest.param("import tensorflow as tf\nops = [tf.summary.scalar]\n", id='not called'),
        pytest.param(
            "import tensorflow as tf\nscalar = tf.summary.scalar\nscalar('loss', l, step=s)\n",
            id='TF2 op bound to a name, called with a step',
        ),
        pytest.param(
            "import tensorflow as tf\nscalar_summary = tf.summary.scalar\n",
            id='op bound to a name, called elsewhere, no TF1 summary machinery in the file',
        ),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\nm = tf.summary.merge_all()\nw = tf.summary.FileWriter(d)\n', [2, 3], id='merge_all and FileWriter'),
        pytest.param('import tensorflow as tf\ntf.compat.v1.summary.merge([a, b])\n', [2], id='compat.v1 merge'),
        pytest.param("import tensorflow as tf\ntf.summary.scalar('loss', loss)\n", [2], id='v1 scalar op without a step'),
        pytest.param("import tensorflow as tf\ntf.summary.histogram('w', w, collections=['c'])\n", [2], id='v1 collections='),
        pytest.param("import tensorflow as tf\ntf.summary.image('x', x, 4, family='input')\n", [2], id='v1 family='),
        pytest.param("import tensorflow as tf\ntf.summary.image('gen', x, 30)\n", [2], id="v1 image's max_outputs by position"),
        pytest.param(
            "import tensorflow as tf\nw = tf.summary.create_file_writer(d)\ntf.summary.scalar('a', v, [])\n", [3],
            id="v1 collections by position, even beside a TF2 writer",
        ),
        pytest.param("import tensorflow.compat.v1 as tf\ntf.summary.scalar('loss', loss, step)\n", [2], id='through compat.v1'),
        pytest.param(
            "import tensorflow as tf\nscalar_summary = tf.summary.scalar\ndef f(l):\n    return scalar_summary('loss', l)\n",
            [2], id='op bound to a name the file calls without a step',
        ),
        pytest.param(
            "import tensorflow as tf\nimage_summary = tf.summary.image\nmerge_summary = tf.summary.merge\n",
            [2, 3], id='op bound to a name next to TF1 merge, called in another module',
        ),
        pytest.param(
            "import tensorflow as tf\nhist = tf.compat.v1.summary.histogram\n", [2], id='op bound through compat.v1',
        ),
        pytest.param(
            "import tensorflow as tf\nclass S:\n    def __init__(self):\n        self._scalar_fn = tf.summary.scalar\n"
            "    def scalar(self, name, t):\n        return self._scalar_fn(name, t, family='x')\n",
            [4], id='op bound to an attribute the file calls with TF1 arguments',
        ),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
