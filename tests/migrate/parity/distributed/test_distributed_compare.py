"""Loss and action comparison of the distributed parity, on hand-made values (no TensorFlow)."""
from __future__ import annotations

import numpy as np
import pytest

from migrate.parity.distributed.compare import compare_losses, compare_role_actions, replay_consistency
from migrate.parity.distributed.sides import mean_of_worker_losses

ULP = float(np.spacing(np.float32(2.3)))


def test_the_legacy_global_loss_is_the_float32_mean_of_the_workers_losses():
    left, right = np.float32(2.3), np.float32(2.2999997)
    two = np.float32(2)
    expected = np.float32(np.float32(left / two) + np.float32(right / two))
    assert mean_of_worker_losses([{1: float(left)}, {1: float(right)}]) == {1: float(expected)}
    assert mean_of_worker_losses([{1: 1.0, 2: 1.0}, {1: 3.0}]) == {1: 2.0}


def test_exact_mode_accepts_identical_losses_and_rejects_one_ulp():
    assert compare_losses({1: 2.3, 2: 2.2}, {1: 2.3, 2: 2.2}, 0.0).ok
    broken = compare_losses({1: 2.3, 2: 2.2}, {1: 2.3, 2: 2.2 + ULP}, 0.0)
    assert not broken.ok and broken.first_different_step == 2


def test_inexact_mode_checks_only_the_first_steps():
    legacy = {step: 2.3 for step in range(1, 21)}
    modern = {**legacy, 3: 2.3 + ULP, 15: 2.0}
    assert compare_losses(legacy, modern, 1e-6, checked_steps=10).ok
    assert not compare_losses(legacy, {**modern, 4: 2.0}, 1e-6, checked_steps=10).ok


def test_a_step_missing_on_one_side_breaks_parity():
    assert not compare_losses({1: 2.3, 2: 2.2}, {1: 2.3}, 0.0).ok


@pytest.mark.parametrize("role, legacy, modern, ok", [
    pytest.param("chief", [{"hook": "CheckpointSaverHook", "step": 0}], [{"callback": "CheckpointSaver", "step": 0}],
                 True, id="a hook matches its callback"),
    pytest.param("chief", [{"hook": "CheckpointSaverHook", "step": 0}], [{"callback": "CheckpointSaver", "step": 1}],
                 False, id="another step differs"),
    pytest.param("worker", [{"hook": "LoggingTensorHook", "step": 1}], [], True,
                 id="TF1 non-chief logging is a documented difference"),
    pytest.param("chief", [{"hook": "LoggingTensorHook", "step": 1}], [], False, id="the chief must log"),
])
def test_role_actions(role, legacy, modern, ok):
    assert compare_role_actions(role, "worker:0", legacy, modern)["ok"] is ok


def test_replayed_steps_must_repeat_their_loss():
    assert replay_consistency([{1: 2.0, 2: 1.9}, {2: 1.9, 3: 1.8}]) == {"replayed_steps": 1, "mismatched_steps": [], "ok": True}
    assert replay_consistency([{1: 2.0, 2: 1.9}, {2: 1.8}])["mismatched_steps"] == [2]
