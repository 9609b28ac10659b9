"""The TF1 hook protocol, as `migrate.core.protocol` documents it, observed on the real Estimator."""
from __future__ import annotations

import logging
import re

import numpy as np
import pytest
import tensorflow as tf

from legacy.estimator import evaluate, predict, train
from legacy.hooks.event_recorder import EventRecorderHook, load_events
from legacy.hooks.stop_on_condition import StopOnConditionHook
from migrate.core.protocol import expected_events, losses_by_step, without_losses


class Boom(RuntimeError):
    pass


class RaiseInAfterRun(tf.compat.v1.train.SessionRunHook):
    """Raises `Boom` in its `after_run` of the `at_run`-th run."""

    def __init__(self, at_run: int) -> None:
        self.at_run = at_run
        self.runs = 0

    def after_run(self, run_context, run_values):
        self.runs += 1
        if self.runs == self.at_run:
            raise Boom(f"after_run of run {self.runs}")


def test_training_follows_the_protocol_order(make_estimator, train_arrays):
    recorder = EventRecorderHook("train")
    train(make_estimator(), train_arrays, steps=5, batch_size=32, hooks=[recorder], shuffle=False)

    assert without_losses(recorder.events) == expected_events("train", 5)
    names = [event["event"] for event in recorder.events]
    assert names.index("after_create_session") < names.index("before_run")
    assert sorted(losses_by_step(recorder.events)) == [1, 2, 3, 4, 5]


def test_a_resumed_session_counts_from_the_restored_global_step(make_estimator, train_arrays):
    estimator = make_estimator()
    train(estimator, train_arrays, steps=3, batch_size=32)
    recorder = EventRecorderHook("train")
    train(estimator, train_arrays, steps=2, batch_size=32, hooks=[recorder])

    assert without_losses(recorder.events) == expected_events("train", 2, start_step=3)


def test_input_exhaustion_skips_after_run_but_calls_end(make_estimator, train_arrays):
    x, y = train_arrays
    recorder = EventRecorderHook("train")
    # 100 examples, batch 32, one epoch: 4 runs succeed (the last on 4 examples), the 5th finds no input.
    train(make_estimator(), (x[:100], y[:100]), steps=50, batch_size=32, hooks=[recorder], shuffle=False, num_epochs=1)

    assert without_losses(recorder.events) == expected_events("train", 4, input_exhausted=True)


@pytest.mark.parametrize(
    "recorder_first",
    [pytest.param(False, id="raising hook before the recorder"), pytest.param(True, id="recorder before the raising hook")],
)
def test_another_exception_skips_later_after_runs_and_end(make_estimator, train_arrays, recorder_first):
    recorder = EventRecorderHook("train")
    raising = RaiseInAfterRun(at_run=3)
    hooks = [recorder, raising] if recorder_first else [raising, recorder]
    with pytest.raises(Boom):
        train(make_estimator(), train_arrays, steps=10, batch_size=32, hooks=hooks, shuffle=False)

    completed = expected_events("train", 3 if recorder_first else 2)[:-1]  # no "end"
    if not recorder_first:
        completed.append({"phase": "train", "event": "before_run", "step": 3})
    assert without_losses(recorder.events) == completed


def test_request_stop_every_hook_sees_the_step_and_the_loop_ends_after_it(make_estimator, train_arrays):
    before_stopper = EventRecorderHook("train")
    stopper = StopOnConditionHook(lambda step, loss: step >= 3)
    after_stopper = EventRecorderHook("train")
    train(
        make_estimator(), train_arrays, steps=10, batch_size=32,
        hooks=[before_stopper, stopper, after_stopper], shuffle=False,
    )

    assert stopper.stopped_at == 3
    assert without_losses(before_stopper.events) == expected_events("train", 3)
    assert without_losses(after_stopper.events) == expected_events("train", 3, stop_requested=True)


def test_the_estimators_own_step_budget_is_not_a_recorded_stop_request(make_estimator, train_arrays):
    """Estimator.train appends its StopAtStepHook after the user's hooks, so the recorder never sees it."""
    recorder = EventRecorderHook("train")
    train(make_estimator(), train_arrays, steps=2, batch_size=32, hooks=[recorder])

    assert "request_stop" not in [event["event"] for event in recorder.events]


def test_evaluation_counts_batches_and_ends_on_exhausted_input(make_estimator, train_arrays, test_arrays):
    estimator = make_estimator()
    train(estimator, train_arrays, steps=1, batch_size=32)
    recorder = EventRecorderHook("evaluate")
    x, y = test_arrays
    metrics = evaluate(estimator, (x[:100], y[:100]), batch_size=32, hooks=[recorder])

    assert metrics["global_step"] == 1
    assert recorder.events == expected_events("evaluate", 4, input_exhausted=True)


def test_prediction_counts_batches_and_ends_when_fully_consumed(make_estimator, train_arrays, test_arrays):
    estimator = make_estimator()
    train(estimator, train_arrays, steps=1, batch_size=32)
    recorder = EventRecorderHook("predict")
    predictions = predict(estimator, test_arrays[0][:100], batch_size=32, hooks=[recorder])

    assert predictions["classes"].shape == (100,)
    assert recorder.events == expected_events("predict", 4, input_exhausted=True)


class CaptureTensorflowLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def test_recorded_losses_equal_the_losses_the_estimator_logs(make_estimator, train_arrays):
    """The Estimator's own LoggingTensorHook ("loss = ..., step = ...") every step is the independent witness."""
    recorder = EventRecorderHook("train")
    logger = tf.get_logger()
    capture = CaptureTensorflowLog()
    level = logger.level
    logger.addHandler(capture)
    logger.setLevel(logging.INFO)
    try:
        train(make_estimator(log_step_count_steps=1), train_arrays, steps=6, batch_size=32, hooks=[recorder])
    finally:
        logger.removeHandler(capture)
        logger.setLevel(level)

    logged = [float(match.group(1)) for message in capture.messages if (match := re.match(r"loss = ([^,]+), step", message))]
    recorded = [loss for _, loss in sorted(losses_by_step(recorder.events).items())]
    assert len(logged) == 6
    np.testing.assert_array_equal(np.float32(logged), np.float32(recorded))


def test_saved_events_load_back_unchanged(make_estimator, train_arrays, tmp_path):
    recorder = EventRecorderHook("train")
    train(make_estimator(), train_arrays, steps=2, batch_size=32, hooks=[recorder])
    recorder.save(tmp_path / "events.json")

    assert load_events(tmp_path / "events.json") == recorder.events


def test_unknown_phase_and_missing_loss_tensor_are_named():
    with pytest.raises(ValueError, match="phase must be one of"):
        EventRecorderHook("fit")
    with tf.Graph().as_default():
        tf.compat.v1.train.get_or_create_global_step()
        with pytest.raises(RuntimeError, match="no tensor 'loss:0'"):
            EventRecorderHook("train").begin()
