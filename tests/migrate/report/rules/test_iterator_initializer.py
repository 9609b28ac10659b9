"""`iterator-initializer` (TFM402): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM402"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('sess.run(iterator.initializer)\n', id='initializer in a file without tensorflow'),
        pytest.param('import tensorflow as tf\nlayer.kernel_initializer\n', id='kernel_initializer arguments'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\nsess.run(iterator.initializer, feed_dict={x: a})\n', [2], id='iterator.initializer'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
