"""`cross-shard-optimizer` (TFM512): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM512"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy(resolver)\n", id="TPUStrategy"),
        pytest.param("import tensorflow as tf\nfrom mylib import CrossShardOptimizer\nCrossShardOptimizer(opt)\n", id="a same-named class elsewhere"),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("import tensorflow as tf\nopt = tf.tpu.CrossShardOptimizer(opt)\n", [2], id="tf.tpu"),
        pytest.param("import tensorflow as tf\nopt = tf.compat.v1.tpu.CrossShardOptimizer(opt)\n", [2], id="tf.compat.v1.tpu"),
        pytest.param("import tensorflow as tf\nopt = tf.contrib.tpu.CrossShardOptimizer(opt)\n", [2], id="tf.contrib.tpu"),
        pytest.param(
            "from tensorflow.python.tpu import tpu_optimizer\nopt = tpu_optimizer.CrossShardOptimizer(opt)\n", [2], id="private module",
        ),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
