"""`v1-summary` (TFM510): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM510"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\ntf.summary.create_file_writer(d)\n', id='TF2 summary writer'),
        pytest.param("import tensorflow as tf\ntf.summary.scalar('loss', l, step=1)\n", id='tf.summary.scalar'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\nm = tf.summary.merge_all()\nw = tf.summary.FileWriter(d)\n', [2, 3], id='merge_all and FileWriter'),
        pytest.param('import tensorflow as tf\ntf.compat.v1.summary.merge([a, b])\n', [2], id='compat.v1 merge'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
