"""`v1-optimizer` (TFM504): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM504"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\ntf.keras.optimizers.Adam(1e-3)\n', id='keras optimizers'),
        pytest.param('import tensorflow as tf\nclass AdamOptimizer:\n    pass\nAdamOptimizer()\n', id='a user AdamOptimizer'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.train.AdamOptimizer(1e-3)\n', [2], id='AdamOptimizer'),
        pytest.param('import tensorflow as tf\ntf.compat.v1.train.GradientDescentOptimizer(0.1)\n', [2], id='GradientDescentOptimizer via compat.v1'),
        pytest.param('from tensorflow.python.training import momentum\nmomentum.MomentumOptimizer(0.1, 0.9)\n', [2], id='private module'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
