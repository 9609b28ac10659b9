"""`monitored-session` (TFM304): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM304"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nclass Scaffold:\n    pass\nScaffold()\n', id='a user Scaffold'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.train.MonitoredTrainingSession(hooks=h)\n', [2], id='MonitoredTrainingSession'),
        pytest.param('import tensorflow.compat.v1 as tf\ntf.train.MonitoredSession(tf.train.ChiefSessionCreator(scaffold=tf.train.Scaffold()))\n', [2, 2, 2], id='MonitoredSession and Scaffold'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
