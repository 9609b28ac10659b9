"""The acceptance checks of issue 11 on the shared faulted 2-worker run (TF 2.15: the legacy side needs it)."""
from __future__ import annotations

from pathlib import Path

import pytest

from migrate.parity.outputs import write_parity_outputs
from migrate.parity.render import terminal_summary
from tests.distributed_runs import mnist_run

pytestmark = pytest.mark.estimator
STEPS, SAVE_STEPS, KILL_STEP = 16, 4, 6  # as in conftest.py's faulted_run


def test_synchronous_losses_are_bit_identical_at_every_step(faulted_run):
    result, _ = faulted_run
    assert (result.config["steps"], result.config["save_steps"]) == (STEPS, SAVE_STEPS)
    assert result.config["kill"] == f"worker:1@{KILL_STEP}"
    assert [row.step for row in result.losses.rows] == list(range(1, STEPS + 1))
    assert result.losses.max_abs_loss_diff == 0.0 and result.losses.schedule.start == 0.0
    assert result.ok, result.failures()
    assert [stage.status for stage in result.stages] == ["ok"] * 5


@pytest.mark.parametrize("side", ["legacy", "modern"])
def test_a_killed_worker_restarts_from_the_last_checkpoint_and_training_completes(faulted_run, side):
    result, sides = faulted_run
    killed, restarted = sides[side].attempts
    assert killed.status == "killed" and killed.killed == "worker:1"
    # the killed worker held at the fault's step (the launcher told it to), so the kill lands there on any machine
    assert killed.killed_at_step == KILL_STEP <= (killed.cluster_step or 0) < STEPS
    last_saved = KILL_STEP // SAVE_STEPS * SAVE_STEPS
    assert killed.resumes_from_checkpoint == last_saved
    assert killed.steps_lost == killed.cluster_step - last_saved
    assert restarted.status == "done"
    chief = sides[side].traces[0].role
    assert (chief.start_step, chief.final_step) == (last_saved, STEPS)
    replay = sides[side].replay
    # steps both workers finished before the kill are trained again and must give the same loss
    assert replay["replayed_steps"] >= KILL_STEP - last_saved and replay["mismatched_steps"] == []
    assert result.stage("replay").details[side] == replay and result.stage("replay").ok


def test_modern_resumes_through_keras_backup_and_restore_which_cleans_its_backup(faulted_run):
    modern = faulted_run[1]["modern"]
    killed = modern.attempts[0]
    for index, trace in modern.traces.items():
        # every worker of the restarted cluster was restored by BackupAndRestore, not by hand, at the backup's step
        assert trace.role.restored_by == "BackupAndRestore", index
        assert trace.role.start_step == killed.resumes_from_checkpoint
    backup = Path(modern.model_dir) / "backup"
    assert not backup.exists() or [path for path in backup.rglob("*") if path.is_file()] == []


@pytest.mark.parametrize("side", ["legacy", "modern"])
def test_no_checkpoint_file_is_corrupt(faulted_run, side):
    import tensorflow as tf

    model_dir = Path(faulted_run[1][side].model_dir)
    prefixes = sorted(str(path)[: -len(".index")] for path in model_dir.glob("model.ckpt-*.index"))
    assert prefixes and tf.train.latest_checkpoint(str(model_dir)).endswith(f"model.ckpt-{STEPS}")
    for prefix in prefixes:
        reader = tf.train.load_checkpoint(prefix)
        for name in reader.get_variable_to_shape_map():
            reader.get_tensor(name)


def _summary_steps(path: Path) -> list[int]:
    import tensorflow as tf

    return [event.step for event in tf.compat.v1.train.summary_iterator(str(path))
            if any(value.tag == "step_loss" for value in event.summary.value)]


def test_modern_writes_exactly_one_set_of_checkpoints_and_summaries(faulted_run):
    modern = faulted_run[1]["modern"]
    files = modern.files
    model_dir = Path(modern.model_dir)
    assert files.checkpoint_steps == list(range(0, STEPS + 1, SAVE_STEPS))
    assert files.worker_temp_dirs_left == [] and not list(model_dir.glob("**/*workertemp_*"))
    chief_pids = {attempt.pids["worker:0"] for attempt in modern.attempts}
    assert {event["pid"] for event in files.event_files} == chief_pids
    steps_by_process: dict[int, list[int]] = {}
    for event in files.event_files:
        steps_by_process.setdefault(event["pid"], []).extend(_summary_steps(model_dir / event["file"]))
    for steps in steps_by_process.values():
        assert steps and len(steps) == len(set(steps))


def test_events_per_role_match_with_the_documented_differences(faulted_run):
    result, sides = faulted_run
    chief, worker, ps = result.events
    assert chief.ok and chief.modern and chief.scenario == "chief (worker:0)"
    assert {event["event"] for event in chief.modern} == {"CheckpointSaver", "SummarySaver", "StepCounter", "LoggingTensor"}
    assert worker.ok and worker.legacy == worker.modern == []  # TF1's non-chief LoggingTensorHook: documented, dropped
    assert {action.by for action in sides["legacy"].traces[1].actions} == {"LoggingTensorHook"}
    assert ps.ok and ps.rows == []


def test_accuracy_is_identical(faulted_run):
    metrics = faulted_run[0].metrics
    assert metrics.legacy["accuracy"] == metrics.modern["accuracy"] and metrics.max_gap == 0.0


def test_outputs_hold_the_role_and_loss_comparison(faulted_run, tmp_path):
    result, _ = faulted_run
    written, notes = write_parity_outputs(result, tmp_path)
    assert set(written) == {"summary", "plot", "report"} and notes == []
    report = written["report"].read_text()
    assert "## 2. Hook vs callback event sequences" in report and "### chief (worker:0): match" in report
    assert "## Clusters" in report and "SIGKILL worker:1" in report
    assert "--workers 2 --replication sync --kill worker:1@6" in terminal_summary(result)


def test_a_legacy_failure_is_reported_not_the_stop_it_caused_on_the_modern_side(monkeypatch, tmp_path):
    import time

    from migrate.parity.distributed import run as run_module
    from migrate.parity.distributed.cluster import ClusterError
    from migrate.parity.distributed.run import DistributedConfig

    def fake_run_side(side, config, run_path, workdir, initial_weights, progress, cancel=None):
        if side == "legacy":
            initial_weights.write_bytes(b"")  # the modern side starts
            time.sleep(0.2)
            raise ClusterError("legacy worker 0 (127.0.0.1:1) was killed by signal 9; every other process was stopped.")
        cancel.wait(5)
        raise ClusterError("modern: stopped because the other side failed or was interrupted.")

    monkeypatch.setattr(run_module, "run_side", fake_run_side)
    with pytest.raises(ClusterError, match=r"^legacy worker 0 \(127\.0\.0\.1:1\) was killed by signal 9"):
        run_module._run_both(DistributedConfig(mnist_run(16)), tmp_path / "run.json", tmp_path, tmp_path / "init.npz",
                             print)
