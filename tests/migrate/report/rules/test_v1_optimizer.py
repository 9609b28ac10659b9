"""`v1-optimizer` (TFM504): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM504"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\ntf.keras.optimizers.Adam(1e-3)\n', id='keras optimizers'),
        pytest.param('import tensorflow as tf\nclass AdamOptimizer:\n    pass\nAdamOptimizer()\n', id='a user AdamOptimizer'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.train.AdamOptimizer(1e-3)\n', [2], id='AdamOptimizer'),
        pytest.param('import tensorflow as tf\ntf.compat.v1.train.GradientDescentOptimizer(0.1)\n', [2], id='GradientDescentOptimizer via compat.v1'),
        pytest.param('from tensorflow.python.training import momentum\nmomentum.MomentumOptimizer(0.1, 0.9)\n', [2], id='private module'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            'import tensorflow as tf\ntf.train.AdamOptimizer(1e-3)\n',
            ["`modern.optimizers.Adam(learning_rate)` (TF1's update, bit for bit)",
             "`keras.optimizers.Adam(learning_rate, epsilon=1e-8)`", "epsilon is 1e-7"],
            id="Adam names the exact twin, then Keras' own and its difference",
        ),
        pytest.param(
            'import tensorflow as tf\ntf.train.RMSPropOptimizer(1e-3)\n',
            ["`modern.optimizers.RMSProp(", "mean square at 0 (TF1 at 1)"],
            id="RMSProp names the initial-value difference",
        ),
        pytest.param(
            'import tensorflow as tf\ntf.train.ProximalAdagradOptimizer(1e-3)\n',
            ["no Keras twin"],
            id="no twin",
        ),
    ],
)
def test_message_names_the_exact_twin_and_the_native_difference(source: str, expected: list[str], messages) -> None:
    [message] = messages(source, CODE)
    assert all(part in message for part in expected), message
