"""Issue 11's asynchronous part on the shared faulted run: both clusters finish, roles, fault, files (TF 2.15)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from migrate.parity.outputs import write_parity_outputs
from migrate.parity.render import terminal_summary

pytestmark = pytest.mark.estimator
STEPS, SAVE_STEPS, KILL_STEP = 96, 24, 6  # as in conftest.py's async_faulted_run


def test_both_asynchronous_clusters_reach_the_last_step_and_checkpoint_it(async_faulted_run):
    result, _ = async_faulted_run
    assert result.config["replication"] == "async"
    assert [stage.status for stage in result.stages] == ["ok", "not checked", "ok", "ok", "ok"], result.failures()
    for side in ("legacy", "modern"):
        reached = result.stage("cluster").details["sides"][side]
        assert reached["final_step"] >= STEPS and reached["last_checkpoint"] >= STEPS
    assert not result.losses.checked and result.losses.schedule.name == "asynchronous"
    assert any(row.legacy is not None for row in result.losses.rows)
    assert any(row.modern is not None for row in result.losses.rows)
    gap = abs(result.metrics.legacy["accuracy"] - result.metrics.modern["accuracy"])
    assert result.metrics.accuracy_gap == gap
    # 96 updates are below the band's calibration (200): the accuracy is reported, not judged, and a note says so
    assert result.metrics.max_gap == float("inf") and result.stage("evaluation").ok
    assert any("reported, not judged" in note and "this run has 96" in note for note in result.notes)


@pytest.mark.parametrize("side", ["legacy", "modern"])
def test_a_killed_worker_is_restarted_alone_and_nothing_is_trained_twice(async_faulted_run, side):
    (attempt,) = async_faulted_run[1][side].attempts
    assert attempt.status == "done" and attempt.restarted_alone and attempt.killed == "worker:1"
    # the TF1 chief does not wait for worker 1, whose first global step may come late: only the lower bound is sure
    assert attempt.killed_at_step is not None and KILL_STEP <= attempt.killed_at_step
    assert attempt.steps_lost == 0 and attempt.first_step_after_kill is not None
    counts = attempt.steps_by_process
    assert counts.get("worker:0", 0) > 0, counts
    if side == "legacy":  # its own progress reached the kill step (a TF2 worker slow to connect may run none)
        assert counts.get("worker:1 (killed)", 0) > 0, counts
    else:  # every step the coordinator scheduled is attributed to a worker process
        assert sum(counts.values()) == async_faulted_run[1]["modern"].traces[0].role.scheduled_steps, counts


@pytest.mark.parametrize("side", ["legacy", "modern"])
def test_no_checkpoint_file_is_corrupt(async_faulted_run, side):
    import tensorflow as tf

    model_dir = Path(async_faulted_run[1][side].model_dir)
    prefixes = sorted(str(path)[: -len(".index")] for path in model_dir.glob("model.ckpt-*.index"))
    assert len(prefixes) >= 3
    for prefix in prefixes:
        reader = tf.train.load_checkpoint(prefix)
        for name in reader.get_variable_to_shape_map():
            reader.get_tensor(name)


def test_the_coordinator_writes_one_set_of_checkpoints_and_summaries_on_schedule(async_faulted_run):
    modern = async_faulted_run[1]["modern"]
    files = modern.files
    coordinator_trace = modern.traces[0]
    schedule = list(range(0, STEPS + 1, SAVE_STEPS))
    if coordinator_trace.role.extra_updates == 0:  # a step retried after the kill may have been applied twice
        assert files.checkpoint_steps == schedule
    assert files.checkpoint_steps[0] == 0 and files.checkpoint_steps[-1] == STEPS
    assert len(files.checkpoint_steps) == len(schedule)
    assert files.event_writers == ["chief"] and files.one_writer
    (coordinator,) = [pid for task, pid in modern.attempts[0].pids.items() if task == "chief:0"]
    assert {event["pid"] for event in files.event_files} == {coordinator}
    saved = [a.step for a in coordinator_trace.actions if a.by == "CheckpointSaver"]
    assert saved == files.checkpoint_steps


def test_events_per_role_the_coordinator_runs_what_the_tf1_chief_ran(async_faulted_run):
    result, sides = async_faulted_run
    chief, worker, ps = result.events
    names = {"CheckpointSaver", "LoggingTensor", "StepCounter", "SummarySaver"}
    assert chief.ok and {event["event"] for event in chief.modern} == names == {event["event"] for event in chief.legacy}
    assert worker.ok and worker.legacy == worker.modern == []
    assert {a.by for a in sides["legacy"].traces[1].actions} <= {"LoggingTensorHook"}
    assert ps.ok and ps.rows == []


def test_the_outputs_name_the_replication(async_faulted_run, tmp_path):
    result, _ = async_faulted_run
    written, _ = write_parity_outputs(result, tmp_path)
    assert set(written) == {"summary", "plot", "report"}
    summary = json.loads(written["summary"].read_text())
    assert summary["config"]["replication"] == "async" and summary["losses"]["tolerance"].startswith("asynchronous")
    assert "not compared step by step" in written["report"].read_text()
    assert "--replication async" in terminal_summary(result)
