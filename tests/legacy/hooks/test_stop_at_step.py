"""`StopAtStepHook`: `num_steps` counts from the step at session creation, `last_step` is absolute."""
from __future__ import annotations

import pytest

from legacy.estimator import latest_step, train
from legacy.hooks.event_recorder import EventRecorderHook
from legacy.hooks.stop_at_step import make_stop_at_step_hook
from migrate.core.protocol import expected_events, without_losses


def test_num_steps_is_relative_to_the_restored_step(make_estimator, train_arrays):
    estimator = make_estimator()
    train(estimator, train_arrays, steps=3, batch_size=32)
    recorder = EventRecorderHook("train")
    train(estimator, train_arrays, batch_size=32, hooks=[make_stop_at_step_hook(num_steps=2), recorder])

    assert latest_step(estimator.model_dir) == 5
    assert without_losses(recorder.events) == expected_events("train", 2, start_step=3, stop_requested=True)


def test_last_step_is_absolute(make_estimator, train_arrays):
    estimator = make_estimator()
    train(estimator, train_arrays, steps=3, batch_size=32)
    train(estimator, train_arrays, batch_size=32, hooks=[make_stop_at_step_hook(last_step=4)])

    assert latest_step(estimator.model_dir) == 4


def test_exactly_one_bound_is_required():
    with pytest.raises(ValueError):
        make_stop_at_step_hook(num_steps=1, last_step=2)
