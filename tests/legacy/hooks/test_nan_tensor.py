"""`NanTensorHook`: fail (no `end`) or stop gracefully when the loss becomes NaN."""
from __future__ import annotations

import pytest
import tensorflow as tf

from legacy.hooks.event_recorder import EventRecorderHook
from legacy.hooks.nan_tensor import make_nan_tensor_hook
from legacy.monitored import train_monitored

DIVERGING = {"optimizer": "sgd", "learning_rate": 1e6, "dropout_rate": 0.0}


def run(train_arrays, hook, recorder):
    return train_monitored(
        train_arrays, checkpoint_dir=None, steps=50, batch_size=32, params=DIVERGING,
        hooks=[hook, recorder], shuffle=False,
    )


def test_fail_on_nan_raises_and_skips_end(train_arrays):
    recorder = EventRecorderHook("train")
    with pytest.raises(tf.compat.v1.train.NanLossDuringTrainingError):
        run(train_arrays, make_nan_tensor_hook(fail_on_nan_loss=True), recorder)

    assert recorder.events[-1]["event"] == "before_run"
    assert "end" not in [event["event"] for event in recorder.events]


def test_without_fail_it_requests_a_stop_in_the_nan_step(train_arrays):
    recorder = EventRecorderHook("train")
    last = run(train_arrays, make_nan_tensor_hook(fail_on_nan_loss=False), recorder)

    assert last < 50
    assert [event["event"] for event in recorder.events][-3:] == ["after_run", "request_stop", "end"]
    assert recorder.events[-3]["loss"] != recorder.events[-3]["loss"]  # NaN
