"""`variable-initializers` (TFM306): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM306"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\ntf.keras.initializers.GlorotUniform()\n', id='keras initializers'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\nsess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])\n', [2, 2], id='global and local initializers'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
