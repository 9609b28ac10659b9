"""`EarlyStopping`: TF1's step-based patience over evaluation results."""
from __future__ import annotations

import pytest
from tensorflow import keras

from modern.callbacks.early_stopping import EarlyStopping
from tests.modern.conftest import global_step


class ScriptedMetric(keras.callbacks.Callback):
    """Puts a scripted `val_score` into the epoch logs, as validation would."""

    def __init__(self, values: list[float]) -> None:
        super().__init__()
        self.values = values

    def on_epoch_end(self, epoch, logs=None):
        logs["val_score"] = self.values[epoch]


def _fit(model, data, values, stopper, steps_per_epoch=5):
    model.fit(data, epochs=len(values), steps_per_epoch=steps_per_epoch, callbacks=[ScriptedMetric(values), stopper], verbose=0)


def test_patience_counts_training_steps(model, train_data):
    stopper = EarlyStopping("val_score", max_steps_without_improvement=10, mode="min")
    _fit(model, train_data, [1.0, 0.5, 0.6, 0.7, 0.8, 0.1], stopper)
    # best 0.5 at step 10; 15 is 5 steps later, 20 is 10 steps later -> stop at 20.
    assert stopper.stopped_at == 20 and global_step(model) == 20
    assert stopper.history == {5: 1.0, 10: 0.5, 15: 0.6, 20: 0.7}


def test_mode_max_and_min_steps(model, train_data):
    stopper = EarlyStopping("val_score", max_steps_without_improvement=5, mode="max", min_steps=10)
    _fit(model, train_data, [9.0, 1.0, 2.0, 1.5, 3.0], stopper)
    # step 5 ignored (< min_steps); best 1.0 at 10, 2.0 at 15, 15 -> 20 no increase for 5 steps.
    assert stopper.stopped_at == 20


def test_improving_metric_never_stops(model, train_data):
    stopper = EarlyStopping("val_score", max_steps_without_improvement=5)
    _fit(model, train_data, [3.0, 2.0, 1.0], stopper, steps_per_epoch=2)
    assert stopper.stopped_at is None and global_step(model) == 6


def test_record_applies_tf1_rule_directly():
    stopper = EarlyStopping("loss", max_steps_without_improvement=100)
    assert not stopper.record(100, 1.0)
    assert not stopper.record(150, 1.2)
    assert stopper.record(200, 1.1)


def test_bad_mode():
    with pytest.raises(ValueError, match="mode must be one of"):
        EarlyStopping(mode="lower")
