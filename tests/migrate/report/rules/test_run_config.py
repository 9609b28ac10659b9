"""`run-config` (TFM104): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM104"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nfrom mylib import RunConfig\nRunConfig()\n', id='a RunConfig of another library'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.estimator.RunConfig(model_dir=d)\n', [2], id='tf.estimator.RunConfig'),
        pytest.param('import tensorflow as tf\ntf.contrib.learn.RunConfig()\n', [2], id='contrib.learn RunConfig'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
