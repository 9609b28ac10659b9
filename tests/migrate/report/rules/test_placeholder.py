"""`placeholder` (TFM301): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM301"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nimport keras\nkeras.backend.placeholder()\n', id='a placeholder of another library'),
        pytest.param("import tensorflow as tf\nprint('tf.placeholder')\n", id='in a string'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.placeholder(tf.float32, [None])\n', [2], id='tf.placeholder'),
        pytest.param('import tensorflow as tf\ntf.compat.v1.placeholder_with_default(1, [])\n', [2], id='compat.v1 spellings'),
        pytest.param('from tensorflow.compat.v1 import sparse_placeholder\nsparse_placeholder(tf.float32)\n', [2], id='from-import'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
