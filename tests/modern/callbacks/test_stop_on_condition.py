"""`StopOnCondition`: should_stop(step, loss) after each step; the stop comes after that step."""
from __future__ import annotations

import pytest

from modern.callbacks.stop_on_condition import StopOnCondition
from modern.training import fit_steps
from tests.modern.conftest import global_step


def test_stops_after_the_step_where_the_condition_holds(model, train_data):
    seen = []

    def should_stop(step, loss):
        seen.append((step, loss))
        return step == 3

    callback = StopOnCondition(should_stop)
    fit_steps(model, train_data, 20, [callback])
    assert callback.stopped_at == 3 and global_step(model) == 3
    assert [step for step, _ in seen] == [1, 2, 3] and all(isinstance(loss, float) for _, loss in seen)


def test_run_every_steps(model, train_data):
    checked = []
    fit_steps(model, train_data, 7, [StopOnCondition(lambda step, loss: checked.append(step) or False, run_every_steps=3)])
    assert checked == [1, 4, 7]


def test_not_callable():
    with pytest.raises(TypeError, match="must be callable"):
        StopOnCondition(3)
