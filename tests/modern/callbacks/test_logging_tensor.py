"""`LoggingTensor`: first step, then every N steps for the whole run, at_end, formatter."""
from __future__ import annotations

import re

import pytest

from modern.callbacks.logging_tensor import LoggingTensor
from modern.training import fit_steps


def test_logs_every_n_iter_and_keeps_logging_after_the_first_n(model, train_data, log_lines):
    logger, lines = log_lines
    fit_steps(model, train_data, 11, [LoggingTensor({"step": "global_step", "loss": "step_loss"}, every_n_iter=3, logger=logger)])
    steps = [int(re.match(r"step = (\d+), loss = [\d.]+", line).group(1)) for line in lines]
    assert steps == [1, 4, 7, 10]
    assert "sec)" not in lines[0] and all(line.endswith("sec)") for line in lines[1:])


def test_counts_iterations_of_this_fit_not_the_global_step(model, train_data, log_lines):
    logger, lines = log_lines
    fit_steps(model, train_data, 2)
    fit_steps(model, train_data, 4, [LoggingTensor(["global_step"], every_n_iter=3, logger=logger)])
    assert lines[0].startswith("global_step = 3") and lines[1].startswith("global_step = 6")


def test_at_end_only_with_formatter(model, train_data, log_lines):
    logger, lines = log_lines
    formatter = lambda values: f"finished at {int(values['global_step'])}"
    fit_steps(model, train_data, 4, [LoggingTensor(["global_step"], at_end=True, formatter=formatter, logger=logger)])
    assert lines == ["finished at 4"]


def test_every_n_secs(model, train_data, log_lines):
    logger, lines = log_lines
    fit_steps(model, train_data, 3, [LoggingTensor(["global_step"], every_n_secs=3600, logger=logger)])
    assert len(lines) == 1


@pytest.mark.parametrize("kwargs", [{}, {"every_n_iter": 2, "every_n_secs": 1.0}], ids=["no schedule", "two schedules"])
def test_schedule_must_be_unambiguous(kwargs):
    with pytest.raises(ValueError, match="exactly one of every_n_iter and every_n_secs"):
        LoggingTensor(["step_loss"], **kwargs)


def test_unknown_key_names_the_available_ones(model, train_data, log_lines):
    logger, _ = log_lines
    with pytest.raises(KeyError, match="step_loss"):
        fit_steps(model, train_data, 1, [LoggingTensor(["learning_rate"], every_n_iter=1, logger=logger)])
