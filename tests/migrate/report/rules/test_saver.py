"""`saver` (TFM505): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM505"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\ntf.train.Checkpoint(model=m)\n', id='tf.train.Checkpoint'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.train.Saver().save(sess, path)\n', [2], id='tf.train.Saver'),
        pytest.param('import tensorflow.compat.v1 as tf\ntf.train.import_meta_graph(p)\n', [2], id='import_meta_graph'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
