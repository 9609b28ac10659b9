"""`hook-graph-in-begin` (TFM206): TensorFlow calls in a hook's `begin`, one finding per hook."""
from __future__ import annotations

import pytest

CODE = "TFM206"
HOOK = "import tensorflow as tf\nclass H(tf.train.SessionRunHook):\n"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(HOOK + "    def begin(self):\n        tf.logging.info('starting')\n", id="logging is not graph building"),
        pytest.param(HOOK + "    def begin(self):\n        self.count = len(self.names)\n", id="no TensorFlow call"),
        pytest.param(HOOK + "    def end(self, session):\n        tf.constant(1)\n", id="not begin"),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param(
            HOOK + "    def begin(self):\n        self.step = tf.train.get_global_step()\n        self.c = tf.constant(0)\n", [4],
            id="one finding at the first call",
        ),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
