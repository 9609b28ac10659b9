"""`queue-runner` (TFM305): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM305"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nimport queue\nqueue.Queue()\n', id='python queues'),
        pytest.param('import tensorflow as tf\ntf.data.Dataset.range(3).batch(2)\n', id='tf.data batch'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param('import tensorflow as tf\ntf.train.start_queue_runners(sess=s, coord=c)\n', [2], id='start_queue_runners'),
        pytest.param('import tensorflow as tf\nq = tf.train.string_input_producer(f)\ntf.train.shuffle_batch([x], 8, 10, 5)\n', [2, 3], id='input producer and shuffle_batch'),
        pytest.param('import tensorflow as tf\ntf.FIFOQueue(10, tf.float32)\n', [2], id='FIFOQueue'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
