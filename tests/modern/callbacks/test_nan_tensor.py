"""`NanTensor`: fail_on_nan_loss=True raises (no on_train_end), False stops gracefully."""
from __future__ import annotations

import numpy as np
import pytest

from migrate.core.protocol import expected_events, without_losses
from modern.callbacks.event_recorder import EventRecorder
from modern.callbacks.nan_tensor import NanLossDuringTrainingError, NanTensor
from modern.training import fit_steps
from tests.modern.conftest import global_step


def _poison(model):
    bias = model.get_layer("logits").bias
    bias.assign(np.full(bias.shape, np.nan, np.float32))


def test_fail_on_nan_raises_and_skips_end(model, train_data, log_lines):
    logger, lines = log_lines
    _poison(model)
    recorder = EventRecorder()
    with pytest.raises(NanLossDuringTrainingError, match="global step 1"):
        fit_steps(model, train_data, 10, [NanTensor(fail_on_nan_loss=True, logger=logger), recorder])
    assert lines == ["Model diverged with loss = NaN."]
    assert recorder.events[-1]["event"] == "before_run"


def test_no_fail_stops_gracefully_after_that_step(model, train_data, log_lines):
    logger, lines = log_lines
    _poison(model)
    recorder = EventRecorder()
    fit_steps(model, train_data, 10, [NanTensor(fail_on_nan_loss=False, logger=logger), recorder])
    assert global_step(model) == 1
    assert without_losses(recorder.events) == expected_events("train", 1, stop_requested=True)
    assert lines == ["Model diverged with loss = NaN."]


def test_finite_losses_pass(model, train_data):
    fit_steps(model, train_data, 3, [NanTensor()])
    assert global_step(model) == 3


def test_missing_loss_key_is_a_clear_error(model, train_data):
    with pytest.raises(KeyError, match="no 'nope' in the train step's logs"):
        fit_steps(model, train_data, 1, [NanTensor(loss_key="nope")])
