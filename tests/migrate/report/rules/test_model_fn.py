"""`model-fn` (TFM103): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM103"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('def model_fn(features, labels, mode):\n    pass\n', id='features/labels signature without tensorflow'),
        pytest.param('import tensorflow as tf\ndef input_fn(features, mode):\n    pass\ndef train(labels, features, mode):\n    pass\n', id='other signatures'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ndef my_model(features, labels, mode, params):\n    pass\n', [2], id='features, labels, mode'),
        pytest.param('import tensorflow as tf\nclass M:\n    def model_fn(self, features, labels, mode):\n        pass\n', [3], id='method with self'),
        pytest.param('import tensorflow as tf\ndef cnn_model_fn(inputs, targets, mode):\n    pass\n', [2], id='named *model_fn taking mode'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
