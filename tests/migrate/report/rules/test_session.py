"""`session` (TFM303): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM303"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nimport requests\nrequests.Session()\n', id='requests.Session'),
        pytest.param('import tensorflow as tf\nfrom sqlalchemy.orm import Session\nSession()\n', id='sqlalchemy Session'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\nwith tf.Session() as sess:\n    pass\n', [2], id='tf.Session'),
        pytest.param('import tensorflow as tf\ntf.compat.v1.InteractiveSession()\n', [2], id='tf.compat.v1.InteractiveSession'),
        pytest.param('from tensorflow.python.client import session\nsession.Session()\n', [2], id='private client module'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
