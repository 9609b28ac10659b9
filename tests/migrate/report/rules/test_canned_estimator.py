"""`canned-estimator` (TFM106): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM106"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nclass DNNClassifier:\n    pass\nDNNClassifier()\n', id='a user DNNClassifier'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.estimator.DNNClassifier(hidden_units=[10])\n', [2], id='DNNClassifier'),
        pytest.param('import tensorflow.compat.v1 as tf\ntf.compat.v1.estimator.LinearRegressor(cols)\n', [2], id='LinearRegressor through compat.v1'),
        pytest.param('from tensorflow.estimator import BoostedTreesClassifier\nBoostedTreesClassifier(c, 1)\n', [2], id='BoostedTreesClassifier from-imported'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
