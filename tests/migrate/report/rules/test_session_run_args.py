"""`session-run-args` (TFM203): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM203"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nclass SessionRunArgs:\n    pass\nSessionRunArgs(1)\n', id='a user SessionRunArgs'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.train.SessionRunArgs(loss)\n', [2], id='fetches'),
        pytest.param('import tensorflow as tf\ntf.estimator.SessionRunArgs(fetches=None, feed_dict={x: 1})\n', [2], id='estimator spelling with feeds'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
