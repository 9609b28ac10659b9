"""`tfdbg-hook` (TFM207): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM207"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\ntf.debugging.experimental.enable_dump_debug_info('/tmp/d')\n", id="Debugger V2"),
        pytest.param("import tensorflow as tf\nfrom mytools import debug as tf_debug\ntf_debug.LocalCLIDebugHook()\n", id="a same-named hook elsewhere"),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("from tensorflow.python import debug as tf_debug\nhooks = [tf_debug.LocalCLIDebugHook()]\n", [2], id="tf_debug.LocalCLIDebugHook"),
        pytest.param(
            "from tensorflow.python.debug.wrappers import hooks\nhooks.DumpingDebugHook('/tmp/dump')\n", [2], id="private module path",
        ),
        pytest.param(
            "import tensorflow as tf\nfrom tensorflow.python import debug as tf_debug\nsess = tf_debug.LocalCLIDebugWrapperSession(sess)\n", [3],
            id="wrapper session",
        ),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
