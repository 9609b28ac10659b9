from __future__ import annotations

import numpy as np
import pytest

from migrate.core.protocol import expected_events, make_event
from migrate.parity.compare import compare_events, compare_losses, compare_metrics
from migrate.parity.tolerance import EXACT_ADAM, EXACT_SGD, EXACT_TWIN, STATISTICAL, schedule_for


def test_identical_losses_hold_with_zero_difference():
    losses = {1: 2.30, 2: 2.1, 3: 1.9}
    result = compare_losses(losses, dict(losses), EXACT_SGD)
    assert result.ok
    assert result.max_abs_loss_diff == 0.0
    assert result.first_difference_step is None


def test_one_ulp_breaks_sgd_parity_at_that_step():
    legacy = {1: 2.30, 2: 2.1, 3: 1.9}
    modern = dict(legacy)
    modern[2] = float(np.nextafter(np.float32(2.1), np.float32(3.0)))
    result = compare_losses(legacy, modern, EXACT_SGD)
    assert not result.ok
    assert result.first_difference_step == 2
    assert result.first_violation.step == 2
    assert result.max_abs_loss_diff > 0


def test_adam_schedule_is_tight_early_and_loose_late():
    assert EXACT_ADAM.allowed(1) == pytest.approx(1e-5)
    assert EXACT_ADAM.allowed(200) == EXACT_ADAM.cap
    legacy = {1: 2.0, 200: 1.0}
    assert not compare_losses(legacy, {1: 2.001, 200: 1.0}, EXACT_ADAM).ok
    assert compare_losses(legacy, {1: 2.0, 200: 1.05}, EXACT_ADAM).ok


def test_a_growing_schedule_holds_its_cap_past_the_largest_float():
    """1.25 ** step overflows a float beyond ~3,180 steps: a long exact Adam run must keep the cap, not crash."""
    assert EXACT_ADAM.allowed(5000) == EXACT_ADAM.cap
    assert compare_losses({5000: 1.0}, {5000: 1.05}, EXACT_ADAM).ok


def test_missing_step_or_nan_is_a_violation():
    assert not compare_losses({1: 1.0, 2: 1.0}, {1: 1.0}, EXACT_SGD).ok
    assert not compare_losses({1: 1.0}, {1: float("nan")}, EXACT_SGD).ok


def test_statistical_losses_are_reported_not_checked():
    result = compare_losses({1: 1.0}, {1: 3.0}, STATISTICAL, checked=False)
    assert result.ok and result.max_abs_loss_diff == 2.0


def test_matching_event_sequences():
    events = expected_events("train", 3, input_exhausted=True)
    assert compare_events("data-exhausted", events, list(events)).ok


def test_dropped_last_after_run_is_the_first_divergence():
    legacy = expected_events("train", 3)
    modern = [event for event in legacy if not (event["event"] == "after_run" and event["step"] == 3)]
    comparison = compare_events("train-steps", legacy, modern)
    assert not comparison.ok
    index, left, right = comparison.first_divergence
    assert left == make_event("train", "after_run", 3) and right is None
    assert comparison.divergence_message() == (
        "train-steps: first divergence at event #8: legacy train:after_run step=3 vs modern (nothing)"
    )


def test_metrics_gap_and_bar():
    ok = compare_metrics({"accuracy": 0.985}, {"accuracy": 0.983}, accuracy_bar=0.98, max_accuracy_gap=0.005)
    assert ok.ok
    too_far = compare_metrics({"accuracy": 0.99}, {"accuracy": 0.981}, accuracy_bar=0.98, max_accuracy_gap=0.005)
    assert too_far.problems == ["test accuracy differs by 0.90 points (allowed 0.50)"]
    below = compare_metrics({"accuracy": 0.97}, {"accuracy": 0.97}, accuracy_bar=0.98, max_accuracy_gap=0.005)
    assert len(below.problems) == 2


def test_the_tf1_exact_optimizer_flavour_is_held_to_bit_identity_for_every_optimizer():
    assert schedule_for("exact", "adam", "exact") is EXACT_TWIN
    assert schedule_for("exact", "rmsprop", "exact").allowed(1000) == 0.0
    assert schedule_for("exact", "adam", "native") is EXACT_ADAM
    assert schedule_for("exact", "adam") is EXACT_ADAM
    assert schedule_for("statistical", "adam", "exact") is STATISTICAL
