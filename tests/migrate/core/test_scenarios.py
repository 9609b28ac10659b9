from __future__ import annotations

from migrate.core.protocol import expected_events, make_event
from migrate.core.scenarios import SCENARIOS, evaluation_after_its_train_step


def test_estimator_evaluation_inside_after_run_round_moves_after_it():
    evaluation = expected_events("evaluate", 2, input_exhausted=True)
    legacy = [
        make_event("train", "before_run", 3),
        *evaluation,
        make_event("train", "after_run", 3, loss=0.5),
        make_event("train", "end", 3),
    ]
    normalized = evaluation_after_its_train_step(legacy)
    assert normalized == [make_event("train", "before_run", 3), make_event("train", "after_run", 3, loss=0.5),
                          *evaluation, make_event("train", "end", 3)]


def test_evaluation_outside_a_step_stays_put():
    events = [*expected_events("train", 1), *expected_events("evaluate", 1)]
    assert evaluation_after_its_train_step(events) == events


def test_every_scenario_is_described():
    assert set(SCENARIOS) == {"train-steps", "data-exhausted", "stop-at-step", "evaluate", "predict", "train-and-evaluate"}
    assert all(scenario.description for scenario in SCENARIOS.values())
