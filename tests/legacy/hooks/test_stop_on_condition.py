"""`StopOnConditionHook`: stops on a condition of (step, loss), recording nothing itself."""
from __future__ import annotations

import pytest

from legacy.estimator import latest_step, train
from legacy.hooks.event_recorder import EventRecorderHook
from legacy.hooks.stop_on_condition import StopOnConditionHook
from migrate.core.protocol import expected_events, losses_by_step, without_losses


def test_stops_on_the_first_step_whose_loss_meets_the_condition(make_estimator, train_arrays):
    seen = []

    def below_start(step: int, loss: float) -> bool:
        seen.append((step, loss))
        return step > 1 and loss < seen[0][1]

    stopper = StopOnConditionHook(below_start)
    recorder = EventRecorderHook("train")
    estimator = make_estimator(params={"optimizer": "sgd", "learning_rate": 0.1, "dropout_rate": 0.0})
    train(estimator, train_arrays, steps=50, batch_size=64, hooks=[stopper, recorder], shuffle=False)

    stop = stopper.stopped_at
    assert stop is not None and stop < 50
    assert without_losses(recorder.events) == expected_events("train", stop, stop_requested=True)
    assert [loss for _, loss in seen] == [losses_by_step(recorder.events)[step] for step in range(1, stop + 1)]
    assert latest_step(estimator.model_dir) == stop  # the final checkpoint is written in end()


def test_it_records_no_events_itself():
    assert not hasattr(StopOnConditionHook(lambda step, loss: False), "events")


def test_a_condition_that_is_not_callable_is_named():
    with pytest.raises(TypeError, match="should_stop must be callable, got 3"):
        StopOnConditionHook(3)
