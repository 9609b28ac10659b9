"""`global-step` (TFM511): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM511"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nmodel.optimizer.iterations\n', id='optimizer.iterations'),
        pytest.param('import tensorflow as tf\nglobal_step = 3\nprint(global_step)\n', id='a local global_step variable'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.train.get_or_create_global_step()\n', [2], id='get_or_create_global_step'),
        pytest.param('import tensorflow as tf\ntf.get_collection(tf.GraphKeys.GLOBAL_STEP)\n', [2], id='GraphKeys.GLOBAL_STEP'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
