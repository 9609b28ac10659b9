"""`hook-session-run` (TFM205): `.run` on the session a hook is given or stored, whatever its name."""
from __future__ import annotations

import pytest

CODE = "TFM205"
HOOK = "import tensorflow as tf\nclass H(tf.train.SessionRunHook):\n"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(HOOK + "    def after_run(self, run_context, values):\n        self.runner.run()\n", id="run on another object"),
        pytest.param(HOOK + "    def end(self, session):\n        self.sessions.run()\n", id="a name that only contains sess"),
        pytest.param(
            "import tensorflow as tf\nclass Loop:\n    def end(self, session):\n        session.run(op)\n", id="not a hook",
        ),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param(HOOK + "    def end(self, s):\n        s.run(self.op)\n", [4], id="the session parameter of end, any name"),
        pytest.param(
            HOOK + "    def after_run(self, ctx, values):\n        ctx.session.run(self.op)\n", [4], id="run_context.session",
        ),
        pytest.param(
            HOOK + "    def after_run(self, ctx, values):\n        sess = ctx.session\n        sess.run(self.op)\n", [5],
            id="through a local variable",
        ),
        pytest.param(
            HOOK + "    def after_create_session(self, session, coord):\n        self._session = session\n"
            "    def after_run(self, ctx, values):\n        self._session.run(self.op)\n",
            [6], id="a session the hook stored",
        ),
        pytest.param(
            HOOK + "    def end(self, session):\n        tf.get_default_session().run(self.op)\n", [4], id="the default session",
        ),
        pytest.param(
            HOOK + "    def after_create_session(self, session, coord):\n        with tf.compat.v1.Session('') as s:\n"
            "            s.run(init)\n",
            [5], id="a session the hook opens",
        ),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
