"""`hook-request-stop` (TFM204): only in the protocol methods of classes that turn out to be hooks."""
from __future__ import annotations

import pytest

CODE = "TFM204"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            "import tensorflow as tf\nclass Loop:\n    def after_run(self, run_context, values):\n        run_context.request_stop()\n",
            id="a class that is not a hook",
        ),
        pytest.param(
            "import tensorflow as tf\nclass H(tf.train.SessionRunHook):\n    def stop(self, run_context):\n        run_context.request_stop()\n",
            id="a helper method, not a protocol method",
        ),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param(
            "import tensorflow as tf\nclass H(tf.train.SessionRunHook):\n    def after_run(self, run_context, values):\n"
            "        if values.results > 3:\n            run_context.request_stop()\n",
            [5], id="run_context.request_stop in after_run",
        ),
        pytest.param(
            "import tensorflow as tf\nclass H(tf.estimator.SessionRunHook):\n    def after_create_session(self, session, coord):\n"
            "        coord.request_stop()\n",
            [4], id="the coordinator's request_stop",
        ),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
