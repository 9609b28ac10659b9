"""`contrib-learn-experiment` (TFM107): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM107"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nfrom mlflow import Experiment\nExperiment()\n', id='an unrelated Experiment'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.contrib.learn.Experiment(e, f, g)\n', [2], id='tf.contrib.learn.Experiment'),
        pytest.param('from tensorflow.contrib.learn.python.learn import learn_runner\nlearn_runner.run(make, d)\n', [1], id='learn_runner imported: its uses are covered by the import'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
