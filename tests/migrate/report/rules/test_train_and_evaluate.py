"""`train-and-evaluate` (TFM105): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM105"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nself.train_and_evaluate()\ntrainer.train_and_evaluate()\n', id='a method named train_and_evaluate'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.estimator.train_and_evaluate(e, tf.estimator.TrainSpec(f), tf.estimator.EvalSpec(g))\n', [2, 2, 2], id='train_and_evaluate with specs'),
        pytest.param('from tensorflow.estimator import train_and_evaluate\ntrain_and_evaluate(e, t, v)\n', [2], id='from-imported'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
