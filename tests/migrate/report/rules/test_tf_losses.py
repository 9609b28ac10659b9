"""`tf-losses` (TFM508): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM508"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\ntf.losses.SparseCategoricalCrossentropy(from_logits=True)\n', id='TF2 loss classes'),
        pytest.param('import tensorflow as tf\ntf.keras.losses.mean_squared_error(a, b)\n', id='keras losses'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.losses.sparse_softmax_cross_entropy(labels=y, logits=z)\n', [2], id='sparse_softmax_cross_entropy'),
        pytest.param('import tensorflow as tf\ntf.compat.v1.losses.get_total_loss()\n', [2], id='get_total_loss via compat.v1'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
