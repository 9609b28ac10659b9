"""Loss and action comparison of the distributed parity, on hand-made values (no TensorFlow)."""
from __future__ import annotations

import numpy as np
import pytest

from migrate.parity.distributed.compare import compare_losses, compare_role_actions, replay_consistency
from migrate.parity.distributed.compare_async import ACCURACY_BAND
from migrate.parity.distributed.compare_async import compare_sides as compare_async_sides
from migrate.parity.distributed.run import DistributedConfig
from migrate.parity.distributed.sides import mean_of_worker_losses, merged_worker_losses

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


def _async_side(accuracy: float, actions: list[dict], final_step: int = 20, checkpoints=(0, 10, 20)) -> dict:
    chief = {"actions": actions, "final_step": final_step}
    return {"traces": {0: chief, 1: {"actions": [{"hook": "LoggingTensorHook", "step": 3}]}},
            "metrics": {"accuracy": accuracy, "loss": 0.3}, "losses": {1: 2.3, 2: 2.1},
            "files": {"checkpoint_steps": list(checkpoints), "one_writer": True}, "attempts": [{"status": "done"}]}


CHIEF_HOOKS = [{"hook": "CheckpointSaverHook", "step": 0}, {"hook": "SummarySaverHook", "step": 1}]
COORDINATOR_CALLBACKS = [{"callback": "CheckpointSaver", "step": 0}, {"callback": "SummarySaver", "step": 1}]


@pytest.mark.parametrize("gap, ok", [(0.0, True), (ACCURACY_BAND * 0.99, True), (ACCURACY_BAND * 1.01, False)])
def test_asynchronous_parity_is_decided_by_the_accuracy_band(gap, ok):
    config = DistributedConfig(workers=2, steps=200, replication="async")
    full = {"final_step": 200, "checkpoints": (0, 100, 200)}
    result = compare_async_sides(config, _async_side(0.9, CHIEF_HOOKS, **full),
                                 _async_side(0.9 - gap, COORDINATOR_CALLBACKS, **full))
    assert result["checks"]["metrics"] is ok and result["ok"] is ok
    assert result["losses"]["compared"] is False and result["checks"]["roles"] and result["checks"]["target"]


def test_asynchronous_roles_compare_names_and_a_missing_callback_is_reported():
    config = DistributedConfig(workers=2, steps=20, replication="async")
    result = compare_async_sides(config, _async_side(0.9, CHIEF_HOOKS), _async_side(0.9, COORDINATOR_CALLBACKS[:1]))
    chief = result["roles"][0]
    assert not chief["ok"] and chief["names"] == {"legacy": ["CheckpointSaver", "SummarySaver"], "modern": ["CheckpointSaver"]}
    assert result["roles"][1]["ok"]  # the legacy worker's LoggingTensorHook is a documented difference


def test_an_asynchronous_side_short_of_the_last_step_fails_the_target_check():
    config = DistributedConfig(workers=2, steps=20, replication="async")
    short = _async_side(0.9, COORDINATOR_CALLBACKS, final_step=15, checkpoints=(0, 10, 15))
    result = compare_async_sides(config, _async_side(0.9, CHIEF_HOOKS), short)
    assert not result["checks"]["target"] and result["target"]["modern"]["last_checkpoint"] == 15


def test_a_run_shorter_than_the_bands_calibration_reports_the_accuracy_without_judging_it():
    config = DistributedConfig(workers=2, steps=20, replication="async")
    result = compare_async_sides(config, _async_side(0.9, CHIEF_HOOKS), _async_side(0.5, COORDINATOR_CALLBACKS))
    assert result["metrics"]["checked"] is False and result["checks"]["metrics"] and result["ok"]
    assert any("the 4-point band is calibrated over 200 updates or more and this run has 20" in note
               for note in result["notes"])


def test_asynchronous_losses_merge_workers_reporting_the_same_step():
    assert merged_worker_losses([{1: 2.0, 3: 1.0}, {2: 1.5, 3: 2.0}]) == {1: 2.0, 2: 1.5, 3: 1.5}


def test_steps_lost_compare_each_progress_file_with_itself():
    from migrate.parity.distributed.run import steps_lost_after

    chief = [(7, 1.0), (9, 3.0), (11, 4.0)]
    worker = [(8, 1.5), (10, 1.9), (12, 5.0)]  # its 10 lands before the kill, the chief's 9 after: lines cross
    assert steps_lost_after([chief, worker], killed_at=2.0) == {
        "cluster_step": 10, "first_step_after_kill": 9, "steps_lost": 0}
    restored = [(8, 1.5), (10, 1.9), (6, 5.0)]  # a task that went back to step 6 trained 5 steps again
    assert steps_lost_after([chief, restored], killed_at=2.0)["steps_lost"] == 5
