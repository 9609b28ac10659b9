"""The acceptance checks of issue 11 on the shared faulted 2-worker run (TF 2.15: the legacy side needs it)."""
from __future__ import annotations

from pathlib import Path

import pytest

from migrate.parity.distributed.report import REPORT_MD, SUMMARY_JSON, write_outputs

pytestmark = pytest.mark.estimator
STEPS, SAVE_STEPS, KILL_STEP = 16, 4, 6  # as in conftest.py's faulted_run


def test_synchronous_losses_are_bit_identical_at_every_step(faulted_run):
    assert (faulted_run["config"]["steps"], faulted_run["config"]["save_steps"]) == (STEPS, SAVE_STEPS)
    assert faulted_run["config"]["kill"] == f"worker:1@{KILL_STEP}"
    losses = faulted_run["losses"]
    assert [row[0] for row in losses["per_step"]] == list(range(1, STEPS + 1))
    assert losses["max_abs_loss_diff"] == 0.0
    assert faulted_run["ok"], faulted_run["checks"]


@pytest.mark.parametrize("side", ["legacy", "modern"])
def test_a_killed_worker_restarts_from_the_last_checkpoint_and_training_completes(faulted_run, side):
    killed, restarted = faulted_run["sides"][side]["attempts"]
    assert killed["status"] == "killed" and killed["killed"] == "worker:1"
    # the killed worker held at the fault's step (the launcher told it to), so the kill lands there on any machine
    assert killed["killed_at_step"] == KILL_STEP <= killed["cluster_step"] < STEPS
    last_saved = KILL_STEP // SAVE_STEPS * SAVE_STEPS
    assert killed["resumes_from_checkpoint"] == last_saved
    assert killed["steps_lost"] == killed["cluster_step"] - last_saved
    assert restarted["status"] == "done"
    chief = faulted_run["sides"][side]["traces"][0]
    assert (chief["start_step"], chief["final_step"]) == (last_saved, STEPS)
    replay = faulted_run["sides"][side]["replay"]
    # steps both workers finished before the kill are trained again and must give the same loss
    assert replay["replayed_steps"] >= killed["killed_at_step"] - last_saved and replay["mismatched_steps"] == []


def test_modern_resumes_through_keras_backup_and_restore_which_cleans_its_backup(faulted_run):
    modern = faulted_run["sides"]["modern"]
    killed = modern["attempts"][0]
    for index, trace in modern["traces"].items():
        # every worker of the restarted cluster was restored by BackupAndRestore, not by hand, at the backup's step
        assert trace["restored_by"] == "BackupAndRestore", index
        assert trace["start_step"] == killed["resumes_from_checkpoint"]
    backup = Path(modern["model_dir"]) / "backup"
    assert not backup.exists() or [path for path in backup.rglob("*") if path.is_file()] == []


@pytest.mark.parametrize("side", ["legacy", "modern"])
def test_no_checkpoint_file_is_corrupt(faulted_run, side):
    import tensorflow as tf

    model_dir = Path(faulted_run["sides"][side]["model_dir"])
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
    modern = faulted_run["sides"]["modern"]
    files = modern["files"]
    model_dir = Path(modern["model_dir"])
    assert files["checkpoint_steps"] == list(range(0, STEPS + 1, SAVE_STEPS))
    assert files["worker_temp_dirs_left"] == [] and not list(model_dir.glob("**/*workertemp_*"))
    chief_pids = {attempt["pids"]["worker:0"] for attempt in modern["attempts"]}
    assert {event["pid"] for event in files["event_files"]} == chief_pids
    steps_by_process: dict[int, list[int]] = {}
    for event in files["event_files"]:
        steps_by_process.setdefault(event["pid"], []).extend(_summary_steps(model_dir / event["file"]))
    for steps in steps_by_process.values():
        assert steps and len(steps) == len(set(steps))


def test_events_per_role_match_with_the_documented_differences(faulted_run):
    chief, worker, ps = faulted_run["roles"]
    assert chief["ok"] and chief["modern_normalized"]
    assert {name for name, _ in chief["modern_normalized"]} == {"CheckpointSaver", "SummarySaver", "StepCounter", "LoggingTensor"}
    assert worker["ok"] and worker["modern"] == []
    assert {action["hook"] for action in worker["legacy"]} == {"LoggingTensorHook"}
    assert ps["ok"] and ps["modern"] is None


def test_accuracy_is_identical(faulted_run):
    metrics = faulted_run["metrics"]
    assert metrics["legacy"]["accuracy"] == metrics["modern"]["accuracy"]


def test_outputs_hold_the_role_and_loss_comparison(faulted_run, tmp_path):
    written = {path.name for path in write_outputs(faulted_run, tmp_path)}
    assert {SUMMARY_JSON, REPORT_MD, "parity-distributed-losses.png"} <= written
    report = (tmp_path / REPORT_MD).read_text()
    assert "## Events per role" in report and "### chief (worker:0): same" in report
    assert "SIGKILL worker:1" in report


def test_a_legacy_failure_is_reported_not_the_stop_it_caused_on_the_modern_side(monkeypatch, tmp_path):
    import time

    from migrate.parity.distributed import run as run_module
    from migrate.parity.distributed.cluster import ClusterError
    from migrate.parity.distributed.run import DistributedConfig

    def fake_run_side(side, config, data_path, workdir, initial_weights, progress, cancel=None):
        if side == "legacy":
            initial_weights.write_bytes(b"")  # the modern side starts
            time.sleep(0.2)
            raise ClusterError("legacy worker 0 (127.0.0.1:1) was killed by signal 9; every other process was stopped.")
        cancel.wait(5)
        raise ClusterError("modern: stopped because the other side failed or was interrupted.")

    monkeypatch.setattr(run_module, "run_side", fake_run_side)
    with pytest.raises(ClusterError, match=r"^legacy worker 0 \(127\.0\.0\.1:1\) was killed by signal 9"):
        run_module._run_both(DistributedConfig(), tmp_path / "data.npz", tmp_path, tmp_path / "init.npz", print)
