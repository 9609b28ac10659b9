"""`variable-scope` (TFM506): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM506"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\nimport mesh_tensorflow as mtf\nmtf.get_variable(mesh, 'w', shape)\n", id='mesh tensorflow get_variable'),
        pytest.param('import tensorflow as tf\ntf.Variable(1.0)\n', id='tf.Variable'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("import tensorflow as tf\nwith tf.variable_scope('a', reuse=tf.AUTO_REUSE):\n    w = tf.get_variable('w', [3])\n", [2, 2, 3], id='get_variable inside variable_scope'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
