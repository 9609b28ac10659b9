"""`estimator-spec` (TFM102): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM102"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('class EstimatorSpec:\n    pass\nEstimatorSpec()\n', id='a user EstimatorSpec'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.estimator.EstimatorSpec(mode, loss=loss)\n', [2], id='tf.estimator.EstimatorSpec'),
        pytest.param('from tensorflow.estimator import EstimatorSpec\nEstimatorSpec(mode)\n', [2], id='from-imported name'),
        pytest.param('import tensorflow as tf\ntf.contrib.tpu.TPUEstimatorSpec(mode)\n', [2], id='TPUEstimatorSpec from contrib'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
