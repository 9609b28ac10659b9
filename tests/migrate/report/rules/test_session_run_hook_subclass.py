"""`session-run-hook-subclass` (TFM201): hook classes, whatever the spelling of their base."""
from __future__ import annotations

import pytest

CODE = "TFM201"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\nclass C(tf.keras.callbacks.Callback):\n    pass\n", id="a Keras callback"),
        pytest.param("import tensorflow as tf\nfrom mylib import SessionRunHook\nclass C(SessionRunHook):\n    pass\n", id="a same-named base"),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("import tensorflow as tf\nclass C(tf.train.SessionRunHook):\n    pass\n", [2], id="tf.train.SessionRunHook"),
        pytest.param(
            "import tensorflow.compat.v1 as tf\nclass C(tf.estimator.SessionRunHook):\n    pass\n", [2], id="compat.v1 estimator spelling",
        ),
        pytest.param(
            "from tensorflow.python.training import basic_session_run_hooks as h\nclass C(h.StepCounterHook):\n    pass\n", [2],
            id="a built-in hook through a private module",
        ),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
