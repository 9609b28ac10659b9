"""`GlobalStepWaiterHook`: no wait once the global step has reached the threshold.

(Below the threshold a lone worker would poll forever: nobody else advances the step.)
"""
from __future__ import annotations

from legacy.estimator import latest_step, train
from legacy.hooks.event_recorder import EventRecorderHook
from legacy.hooks.global_step_waiter import make_global_step_waiter_hook
from migrate.core.protocol import expected_events, without_losses


def test_a_resumed_worker_past_the_threshold_trains_at_once(make_estimator, train_arrays):
    estimator = make_estimator()
    train(estimator, train_arrays, steps=3, batch_size=32)
    recorder = EventRecorderHook("train")
    train(estimator, train_arrays, steps=2, batch_size=32, hooks=[make_global_step_waiter_hook(3), recorder])

    assert latest_step(estimator.model_dir) == 5
    assert without_losses(recorder.events) == expected_events("train", 2, start_step=3)
