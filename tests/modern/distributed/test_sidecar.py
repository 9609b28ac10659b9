"""`modern.distributed.sidecar` without a cluster: TF_CONFIG errors and an evaluator that gets no checkpoint.

It evaluates a real cluster's checkpoints in tests/migrate/parity/distributed.
"""
from __future__ import annotations

import json

import pytest

from migrate.core.cli import UsageError
from migrate.core.side_trace import Action, read_side_trace
from modern.distributed.sidecar import check_tf_config, main
from tests.distributed_runs import mnist_run

WORKERS = ["127.0.0.1:1", "127.0.0.1:2"]


def tf_config(cluster, task_type="evaluator", index=0) -> dict[str, str]:
    return {"TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": task_type, "index": index}})}


def test_the_evaluator_of_a_worker_cluster_is_accepted():
    check_tf_config(tf_config({"worker": WORKERS}))


@pytest.mark.parametrize("environ, message", [
    pytest.param({}, "TF_CONFIG is not set", id="no TF_CONFIG"),
    pytest.param(tf_config({"ps": WORKERS}), "no 'worker' or 'chief' role", id="nobody writes checkpoints"),
    pytest.param(tf_config({"worker": WORKERS}, "worker", 1), "task is worker:1", id="not the evaluator"),
])
def test_bad_tf_config_is_a_usage_error_naming_what_is_wrong(environ, message):
    with pytest.raises(UsageError, match=message):
        check_tf_config(environ)


def test_no_checkpoint_within_the_timeout_is_a_failed_cluster_exit_1_with_what_to_check(monkeypatch, capsys, tmp_path, mnist):
    run = mnist_run(4, train_examples=64, eval_examples=8).write(tmp_path / "run.json")
    (tmp_path / "model").mkdir()
    monkeypatch.setenv("TF_CONFIG", tf_config({"worker": WORKERS})["TF_CONFIG"])
    code = main(["--model-dir", str(tmp_path / "model"), "--run", str(run), "--steps", "4",
                 "--trace", str(tmp_path / "t.json"), "--eval-timeout", "0.5", "--poll-secs", "0.1"])
    assert code == 1
    error = capsys.readouterr().err
    assert "modern.distributed.sidecar (evaluator 0): no new checkpoint arrived in" in error
    assert "within 0.5 s (none arrived; training ends at step 4)" in error and not (tmp_path / "t.json").exists()


def test_the_sidecar_evaluates_checkpoint_saver_checkpoints_and_writes_eval_summaries(monkeypatch, tmp_path, mnist):
    """One process trains the MNIST pair's model 4 steps with `CheckpointSaver` (every 2); the sidecar then evaluates
    the newest checkpoint on the pair's eval dataset (50 images in batches of 32: the last one partial)."""
    from migrate.core.role_program import summary_events
    from migrate.parity.pair import load_pair
    from modern.callbacks.checkpoint_saver import CheckpointSaver

    run = mnist_run(4, batch_size=32, train_examples=128, eval_examples=50)
    pair, params = load_pair(run.pair), run.params("modern")
    model_dir = tmp_path / "model"
    model = pair.call("build_model", params)
    saver = CheckpointSaver(model_dir, save_steps=2, max_to_keep=None)
    model.fit(pair.call("train_dataset", params), epochs=1, steps_per_epoch=4, verbose=0, callbacks=[saver])
    expected = model.evaluate(pair.call("eval_dataset", params), verbose=0, return_dict=True)
    monkeypatch.setenv("TF_CONFIG", tf_config({"worker": WORKERS})["TF_CONFIG"])
    trace_path = tmp_path / "trace.json"
    assert main(["--model-dir", str(model_dir), "--run", str(run.write(tmp_path / "run.json")), "--steps", "4",
                 "--trace", str(trace_path), "--eval-timeout", "5", "--poll-secs", "0.1"]) == 0
    trace = read_side_trace(trace_path)
    (evaluation,) = trace.evaluations  # the newest checkpoint when it looked: the last step's
    assert saver.saved_steps == [0, 2, 4] and evaluation.step == 4 and evaluation.checkpoint == "model.ckpt-4"
    assert evaluation.metrics["accuracy"] == pytest.approx(expected["accuracy"], abs=1e-7)
    assert evaluation.metrics["loss"] == pytest.approx(expected["loss"], rel=1e-6)
    events = summary_events(model_dir / "eval")  # a TF2 writer: one event per scalar
    assert [step for step, tags in events if "accuracy" in tags] == [step for step, tags in events if "loss" in tags] == [4]
    assert trace.actions == [Action("EvalSummary", 4), Action("Evaluation", 4)]
    assert trace.role.eval_batches_full is False
