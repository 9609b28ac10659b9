"""`tf-metrics` (TFM509): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM509"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\ntf.metrics.Accuracy()\n', id='TF2 metric classes'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.metrics.accuracy(labels, predictions)\n', [2], id='tf.metrics.accuracy'),
        pytest.param('import tensorflow.compat.v1 as tf\ntf.metrics.auc(y, p)\n', [2], id='compat.v1 auc'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
