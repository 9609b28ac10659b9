"""`feed-dict` (TFM302): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM302"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('sess.run(op, feed_dict={})\n', id='feed_dict in a file without tensorflow'),
        pytest.param('import tensorflow as tf\nsess.run(op, {x: 1})\n', id='a positional dict'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\nsess.run(op, feed_dict={x: 1})\n', [2], id='session.run with feed_dict'),
        pytest.param('import tensorflow as tf\ny.eval(feed_dict={x: 1})\n', [2], id='tensor.eval with feed_dict'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
