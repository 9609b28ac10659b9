"""`EventRecorder` gives the documented TF1 sequence (`migrate.core.protocol.expected_events`) per scenario."""
from __future__ import annotations

import json

from migrate.core.protocol import expected_events, losses_by_step, without_losses
from modern.callbacks.event_recorder import EventRecorder
from modern.callbacks.stop_at_step import StopAtStep
from modern.callbacks.stop_on_condition import StopOnCondition
from modern.training import evaluate, fit_steps, predict


def test_train_n_steps(model, train_data, tmp_path):
    recorder = EventRecorder()
    fit_steps(model, train_data, 5, [recorder])
    assert without_losses(recorder.events) == expected_events("train", 5)
    losses = losses_by_step(recorder.events)
    assert sorted(losses) == [1, 2, 3, 4, 5] and all(isinstance(loss, float) for loss in losses.values())
    recorder.save(tmp_path / "events.json")
    assert json.loads((tmp_path / "events.json").read_text()) == recorder.events


def test_train_resumed_carries_the_start_step(model, train_data):
    fit_steps(model, train_data, 3)
    recorder = EventRecorder()
    fit_steps(model, train_data, 2, [recorder])
    assert without_losses(recorder.events) == expected_events("train", 2, start_step=3)


def test_train_until_the_generator_is_exhausted(model, finite_train_data):
    recorder = EventRecorder()
    fit_steps(model, finite_train_data, None, [recorder])
    assert without_losses(recorder.events) == expected_events("train", 8, input_exhausted=True)


def test_stop_requested_at_step_k(model, train_data):
    recorder = EventRecorder()
    fit_steps(model, train_data, 20, [StopOnCondition(lambda step, loss: step == 4), recorder])
    assert without_losses(recorder.events) == expected_events("train", 4, stop_requested=True)


def test_stop_at_step_is_recorded_as_a_request(model, train_data):
    recorder = EventRecorder()
    fit_steps(model, train_data, 20, [StopAtStep(last_step=3), recorder])
    assert without_losses(recorder.events) == expected_events("train", 3, stop_requested=True)


def test_evaluate(model, test_data):
    recorder = EventRecorder()
    evaluate(model, test_data, [recorder])
    assert recorder.events == expected_events("evaluate", 3, input_exhausted=True)


def test_predict(model, test_data):
    recorder = EventRecorder()
    logits = predict(model, test_data, [recorder])
    assert logits.shape == (96, 10)
    assert recorder.events == expected_events("predict", 3, input_exhausted=True)
