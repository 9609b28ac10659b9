"""`app-flags` (TFM502): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM502"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_integer('x', 1, 'h')\n", id='absl flags'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("import tensorflow as tf\nflags = tf.app.flags\nflags.DEFINE_integer('x', 1, 'h')\n", [2], id='tf.app.flags re-bound: one finding on the binding'),
        pytest.param('import tensorflow as tf\nFLAGS = tf.flags.FLAGS\n', [2], id='tf.flags.FLAGS'),
        pytest.param('import tensorflow.compat.v1 as tf\ntf.compat.v1.app.run(main)\n', [2], id='tf.compat.v1.app.run stacked on compat.v1'),
        pytest.param('import tensorflow as tf\ntf.app.flags.FLAGS.steps = 3\n', [2], id='an assignment target'),
        pytest.param(
            'import tensorflow as tf\nFLAGS = tf.flags.FLAGS\nn = FLAGS.max_seq_length\nm = n + FLAGS.batch_size\n', [2],
            id='FLAGS and values read from it: one finding, on the binding',
        ),
        pytest.param(
            'import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_integer("a", 1, "")\nflags = tf.flags\nflags.DEFINE_integer("b", 1, "")\n',
            [4], id='absl flags, then re-bound to tf.flags: only the re-binding',
        ),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
