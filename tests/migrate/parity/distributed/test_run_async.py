"""Issue 11's asynchronous part on the shared faulted run: both clusters finish, roles, fault, files (TF 2.15)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from migrate.parity.distributed.report import PLOT_PNG, REPORT_MD, SUMMARY_JSON, terminal_summary, write_outputs

pytestmark = pytest.mark.estimator
STEPS, SAVE_STEPS, KILL_STEP = 48, 12, 6  # as in conftest.py's async_faulted_run


def test_both_asynchronous_clusters_reach_the_last_step_and_checkpoint_it(async_faulted_run):
    assert async_faulted_run["config"]["replication"] == "async"
    checks = async_faulted_run["checks"]
    assert checks["target"] and checks["files"] and checks["roles"] and checks["fault"], checks
    for side in ("legacy", "modern"):
        reached = async_faulted_run["target"][side]
        assert reached["final_step"] >= STEPS and reached["last_checkpoint"] >= STEPS
    assert async_faulted_run["losses"]["compared"] is False
    assert async_faulted_run["losses"]["legacy"] and async_faulted_run["losses"]["modern"]
    gap = abs(async_faulted_run["metrics"]["legacy"]["accuracy"] - async_faulted_run["metrics"]["modern"]["accuracy"])
    assert async_faulted_run["metrics"]["accuracy_gap"] == gap
    # 48 updates are below the band's calibration (200): the accuracy is reported, not judged, and a note says so
    assert async_faulted_run["metrics"]["checked"] is False and async_faulted_run["checks"]["metrics"] is True
    assert any("reported, not judged" in note and "this run has 48" in note for note in async_faulted_run["notes"])


@pytest.mark.parametrize("side", ["legacy", "modern"])
def test_a_killed_worker_is_restarted_alone_and_nothing_is_trained_twice(async_faulted_run, side):
    (attempt,) = async_faulted_run["sides"][side]["attempts"]
    assert attempt["status"] == "done" and attempt["restarted_alone"] and attempt["killed"] == "worker:1"
    # the TF1 chief does not wait for worker 1, whose first global step may come late: only the lower bound is sure
    assert KILL_STEP <= attempt["killed_at_step"]
    assert attempt["steps_lost"] == 0 and attempt["first_step_after_kill"] is not None
    counts = attempt["steps_by_process"]
    assert counts.get("worker:0", 0) > 0, counts
    if side == "legacy":  # its own progress reached the kill step (a TF2 worker slow to connect may run none)
        assert counts.get("worker:1 (killed)", 0) > 0, counts
    else:  # every step the coordinator scheduled is attributed to a worker process
        assert sum(counts.values()) == async_faulted_run["sides"]["modern"]["traces"][0]["scheduled_steps"], counts


@pytest.mark.parametrize("side", ["legacy", "modern"])
def test_no_checkpoint_file_is_corrupt(async_faulted_run, side):
    import tensorflow as tf

    model_dir = Path(async_faulted_run["sides"][side]["model_dir"])
    prefixes = sorted(str(path)[: -len(".index")] for path in model_dir.glob("model.ckpt-*.index"))
    assert len(prefixes) >= 3
    for prefix in prefixes:
        reader = tf.train.load_checkpoint(prefix)
        for name in reader.get_variable_to_shape_map():
            reader.get_tensor(name)


def test_the_coordinator_writes_one_set_of_checkpoints_and_summaries_on_schedule(async_faulted_run):
    modern = async_faulted_run["sides"]["modern"]
    files = modern["files"]
    coordinator_trace = modern["traces"][0]
    schedule = list(range(0, STEPS + 1, SAVE_STEPS))
    if coordinator_trace["extra_updates"] == 0:  # a step retried after the kill may have been applied twice
        assert files["checkpoint_steps"] == schedule
    assert files["checkpoint_steps"][0] == 0 and files["checkpoint_steps"][-1] == STEPS
    assert len(files["checkpoint_steps"]) == len(schedule)
    assert files["event_writers"] == ["chief"] and files["one_writer"]
    (coordinator,) = [pid for task, pid in modern["attempts"][0]["pids"].items() if task == "chief:0"]
    assert {event["pid"] for event in files["event_files"]} == {coordinator}
    saved = [a["step"] for a in coordinator_trace["actions"] if a["callback"] == "CheckpointSaver"]
    assert saved == files["checkpoint_steps"]


def test_events_per_role_the_coordinator_runs_what_the_tf1_chief_ran(async_faulted_run):
    chief, worker, ps = async_faulted_run["roles"]
    names = {"CheckpointSaver", "LoggingTensor", "StepCounter", "SummarySaver"}
    assert chief["ok"] and set(chief["names"]["modern"]) == names == set(chief["names"]["legacy"])
    assert worker["ok"] and worker["modern"] == [] and {a["hook"] for a in worker["legacy"]} <= {"LoggingTensorHook"}
    assert ps["ok"] and ps["legacy"] == [] and ps["modern"] == []


def test_the_outputs_name_the_replication(async_faulted_run, tmp_path):
    written = write_outputs(async_faulted_run, tmp_path)
    assert {path.name for path in written} == {SUMMARY_JSON, REPORT_MD, PLOT_PNG}
    assert json.loads((tmp_path / SUMMARY_JSON).read_text())["config"]["replication"] == "async"
    report = (tmp_path / REPORT_MD).read_text()
    assert "2 workers, asynchronous" in report and "plotted, not compared" in report
    assert "--replication async" in terminal_summary(async_faulted_run)
