"""`StopAtStep`: last_step absolute, num_steps relative to the start step, on optimizer.iterations."""
from __future__ import annotations

import pytest

from modern.callbacks.stop_at_step import StopAtStep
from modern.training import fit_steps
from tests.modern.conftest import global_step


def test_last_step_ends_at_exactly_that_global_step(model, train_data):
    fit_steps(model, train_data, 50, [StopAtStep(last_step=6)])
    assert global_step(model) == 6


def test_num_steps_counts_from_the_start_step(model, train_data):
    fit_steps(model, train_data, 3)
    callback = StopAtStep(num_steps=4)
    fit_steps(model, train_data, 50, [callback])
    assert callback.last_step == 7 and global_step(model) == 7


def test_already_past_last_step_still_runs_one_step_like_tf1(model, train_data):
    fit_steps(model, train_data, 3)
    fit_steps(model, train_data, 50, [StopAtStep(last_step=2)])
    assert global_step(model) == 4


@pytest.mark.parametrize("kwargs", [{}, {"num_steps": 1, "last_step": 2}, {"last_step": -1}], ids=["neither", "both", "negative"])
def test_bad_arguments(kwargs):
    with pytest.raises(ValueError, match="StopAtStep"):
        StopAtStep(**kwargs)
