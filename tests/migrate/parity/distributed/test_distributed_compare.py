"""Loss and action comparison of the distributed parity, on hand-made values (no TensorFlow)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from migrate.core.side_trace import Action, Attempt, Role, SideTrace
from migrate.parity.compare import compare_losses
from migrate.parity.distributed.compare import compare_role, replay_consistency
from migrate.parity.distributed.compare_async import ACCURACY_BAND
from migrate.parity.distributed.config import DistributedConfig
from migrate.parity.distributed.pair_run import PairRun
from migrate.parity.distributed.sides import ClusterFiles, ClusterRun, mean_of_worker_losses, merged_worker_losses
from migrate.parity.distributed.verdict import distributed_result, loss_schedule
from migrate.parity.result import ParityResult

ULP = float(np.spacing(np.float32(2.3)))


def config(workers: int = 2, steps: int = 200, batch: int = 120, schedule: str | None = None,
           replication: str = "sync") -> DistributedConfig:
    """A run of a hand-made MNIST pair run (nothing is loaded)."""
    run = PairRun("/pairs/mnist.py", "mnist", {"learning_rate": 0.05}, {"learning_rate": 0.05}, 42, batch, steps,
                  schedule)
    return DistributedConfig(run, workers=workers, replication=replication)


def test_the_legacy_global_loss_is_the_float32_mean_of_the_workers_losses():
    left, right = np.float32(2.3), np.float32(2.2999997)
    two = np.float32(2)
    expected = np.float32(np.float32(left / two) + np.float32(right / two))
    assert mean_of_worker_losses([{1: float(left)}, {1: float(right)}]) == {1: float(expected)}
    assert mean_of_worker_losses([{1: 1.0, 2: 1.0}, {1: 3.0}]) == {1: 2.0}


def losses_within(legacy: dict[int, float], modern: dict[int, float], workers: int = 2) -> bool:
    return compare_losses(legacy, modern, loss_schedule(config(workers))).ok


def test_exact_mode_accepts_identical_losses_and_rejects_one_ulp():
    assert losses_within({1: 2.3, 2: 2.2}, {1: 2.3, 2: 2.2})
    broken = compare_losses({1: 2.3, 2: 2.2}, {1: 2.3, 2: 2.2 + ULP}, loss_schedule(config()))
    assert not broken.ok and broken.first_difference_step == 2


def test_inexact_mode_checks_only_the_first_steps():
    legacy = {step: 2.3 for step in range(1, 21)}
    modern = {**legacy, 3: 2.3 + ULP, 15: 2.0}
    assert losses_within(legacy, modern, workers=3)
    assert not losses_within(legacy, {**modern, 4: 2.0}, workers=3)


def test_a_step_missing_on_one_side_breaks_parity():
    assert not losses_within({1: 2.3, 2: 2.2}, {1: 2.3})


@pytest.mark.parametrize("role, legacy, modern, ok", [
    pytest.param("chief", [Action("CheckpointSaverHook", 0)], [Action("CheckpointSaver", 0)],
                 True, id="a hook matches its callback"),
    pytest.param("chief", [Action("CheckpointSaverHook", 0)], [Action("CheckpointSaver", 1)],
                 False, id="another step differs"),
    pytest.param("worker", [Action("LoggingTensorHook", 1)], [], True,
                 id="TF1 non-chief logging is a documented difference"),
    pytest.param("chief", [Action("LoggingTensorHook", 1)], [], False, id="the chief must log"),
])
def test_role_actions(role, legacy, modern, ok):
    assert compare_role(role, "worker:0", legacy, modern).ok is ok


def test_replayed_steps_must_repeat_their_loss():
    assert replay_consistency([{1: 2.0, 2: 1.9}, {2: 1.9, 3: 1.8}]) == {"replayed_steps": 1, "mismatched_steps": [], "ok": True}
    assert replay_consistency([{1: 2.0, 2: 1.9}, {2: 1.8}])["mismatched_steps"] == [2]


def _async_side(accuracy: float, actions: list[Action], final_step: int = 20, checkpoints=(0, 10, 20)) -> ClusterRun:
    chief = SideTrace("side", actions=actions, metrics={"accuracy": accuracy, "loss": 0.3},
                      role=Role("chief", "worker:0", final_step=final_step))
    return ClusterRun("async", ["worker:0", "worker:1"], [Attempt(0, "done", 1.0)], {1: 2.3, 2: 2.1}, {"ok": True},
                      {0: chief, 1: SideTrace("side", actions=[Action("LoggingTensorHook", 3)])},
                      ClusterFiles(list(checkpoints), [], ["chief"], [], [], True), Path("model"))


def async_verdict(steps: int, legacy: ClusterRun, modern: ClusterRun) -> ParityResult:
    return distributed_result(config(steps=steps, replication="async"),
                              {"legacy": legacy, "modern": modern})


CHIEF_HOOKS = [Action("CheckpointSaverHook", 0), Action("SummarySaverHook", 1)]
COORDINATOR_CALLBACKS = [Action("CheckpointSaver", 0), Action("SummarySaver", 1)]


@pytest.mark.parametrize("gap, ok", [(0.0, True), (ACCURACY_BAND * 0.99, True), (ACCURACY_BAND * 1.01, False)])
def test_asynchronous_parity_is_decided_by_the_accuracy_band(gap, ok):
    full = {"final_step": 200, "checkpoints": (0, 100, 200)}
    result = async_verdict(200, _async_side(0.9, CHIEF_HOOKS, **full), _async_side(0.9 - gap, COORDINATOR_CALLBACKS, **full))
    assert result.ok is ok and (result.first_failure is None or result.first_failure.name == "evaluation")
    assert result.stage("n-steps").status == "not checked" and result.stage("roles").ok and result.stage("cluster").ok


def test_asynchronous_roles_compare_names_and_a_missing_callback_is_reported():
    result = async_verdict(20, _async_side(0.9, CHIEF_HOOKS), _async_side(0.9, COORDINATOR_CALLBACKS[:1]))
    chief, worker, _ = result.events
    assert not chief.ok and result.first_failure.name == "roles"
    assert "chief:SummarySaver" in result.stage("roles").message
    assert worker.ok  # the legacy worker's LoggingTensorHook is a documented difference


def test_an_asynchronous_side_short_of_the_last_step_fails_the_cluster_check():
    short = _async_side(0.9, COORDINATOR_CALLBACKS, final_step=15, checkpoints=(0, 10, 15))
    result = async_verdict(20, _async_side(0.9, CHIEF_HOOKS), short)
    assert result.first_failure.name == "cluster" and "modern: reached step 15" in result.first_failure.message
    assert [stage.status for stage in result.stages[1:]] == ["skipped"] * 4


def test_a_run_shorter_than_the_bands_calibration_reports_the_accuracy_without_judging_it():
    result = async_verdict(20, _async_side(0.9, CHIEF_HOOKS), _async_side(0.5, COORDINATOR_CALLBACKS))
    assert result.ok and result.metrics is not None and result.metrics.accuracy_gap == pytest.approx(0.4)
    assert (result.config["pair"], result.config["mode"]) == ("mnist", "statistical")
    assert any("the 4-point band is calibrated over 200 updates or more and this run has 20" in note
               for note in result.notes)


def test_asynchronous_losses_merge_workers_reporting_the_same_step():
    assert merged_worker_losses([{1: 2.0, 3: 1.0}, {2: 1.5, 3: 2.0}]) == {1: 2.0, 2: 1.5, 3: 1.5}


def test_steps_lost_compare_each_progress_file_with_itself():
    from migrate.parity.distributed.run import steps_lost_after

    chief = [(7, 1.0), (9, 3.0), (11, 4.0)]
    worker = [(8, 1.5), (10, 1.9), (12, 5.0)]  # its 10 lands before the kill, the chief's 9 after: lines cross
    assert steps_lost_after([chief, worker], killed_at=2.0) == (10, 9, 0)  # cluster step, chief's next, steps lost
    restored = [(8, 1.5), (10, 1.9), (6, 5.0)]  # a task that went back to step 6 trained 5 steps again
    assert steps_lost_after([chief, restored], killed_at=2.0)[2] == 5


def test_a_synchronous_first_step_twice_tf1s_loss_is_explained_in_the_verdict():
    full = {"final_step": 2, "checkpoints": (0, 2)}
    legacy, modern = _async_side(0.9, CHIEF_HOOKS, **full), _async_side(0.9, CHIEF_HOOKS, **full)
    legacy.losses, modern.losses = {1: 19.127254486083984, 2: 18.0}, {1: 38.25450897216797, 2: 36.0}
    result = distributed_result(config(steps=2), {"legacy": legacy, "modern": modern})
    stage = result.stage("n-steps")
    assert not stage.ok and "first step beyond tolerance is 1" in stage.message
    assert "divide that loss by tf.distribute.get_strategy().num_replicas_in_sync" in stage.message


def test_the_sparse_rows_schedule_holds_the_first_40_steps_to_its_calibration():
    schedule = loss_schedule(config(schedule="sparse-rows"))
    legacy = {step: 19.0 for step in range(1, 201)}
    drifted = {step: 19.0 * (1 + (5.2e-4 if step <= 40 else 2.4e-2)) for step in legacy}  # canned_dnn, measured
    assert compare_losses(legacy, drifted, schedule).ok
    assert not compare_losses(legacy, {**drifted, 12: 19.0 * 1.002}, schedule).ok
    assert not compare_losses(legacy, {**drifted, 1: 38.0}, schedule).ok  # a SUM loss not divided by N
