"""`migrate parity --workers 2 --evaluator`: the Estimator cluster (chief, worker, ps, evaluator) and its TF2 twin.

One shared run (module-scoped) on TF 2.15, the legacy side needs tf.estimator.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from migrate.parity.distributed.run import DistributedConfig, run_distributed
from migrate.parity.outputs import write_parity_outputs
from tests.distributed_runs import mnist_run

pytestmark = pytest.mark.estimator
STEPS, SAVE_STEPS = 12, 4


@pytest.fixture(scope="module")
def estimator_run(tmp_path_factory, mnist):
    # 192 test images: every eval batch of 64 is full, so both evaluators' losses are the same mean
    config = DistributedConfig(mnist_run(STEPS, eval_examples=192), workers=2, save_steps=SAVE_STEPS,
                               log_steps=SAVE_STEPS, timeout=240, evaluator=True)
    return run_distributed(config, tmp_path_factory.mktemp("estimator") / "run", progress=lambda _: None)


def test_parity_holds_with_bit_identical_losses(estimator_run):
    result, _ = estimator_run
    assert result.ok, result.failures()
    assert result.config["cluster"] == "estimator"
    assert [row.step for row in result.losses.rows] == list(range(1, STEPS + 1))
    assert result.losses.max_abs_loss_diff == 0.0
    assert result.metrics.legacy["accuracy"] == result.metrics.modern["accuracy"]


@pytest.mark.parametrize("side", ["legacy", "modern"])
def test_the_evaluator_evaluated_the_chiefs_checkpoints_up_to_the_last_step(estimator_run, side):
    checkpoints = estimator_run[1][side].files.checkpoint_steps
    assert checkpoints == list(range(0, STEPS + 1, SAVE_STEPS))
    evaluations = estimator_run[1][side].evaluator.evaluations
    steps = [record.step for record in evaluations]
    assert steps == sorted(set(steps)) and set(steps) <= set(checkpoints) and steps[-1] == STEPS
    assert [record.checkpoint for record in evaluations] == [f"model.ckpt-{step}" for step in steps]


def test_the_evaluators_agree_at_every_checkpoint_both_evaluated(estimator_run):
    result, _ = estimator_run
    evaluation = result.stage("evaluation").details["per_checkpoint"]
    assert all(evaluation["checks"].values()) and STEPS in evaluation["common_steps"] and evaluation["full_batches"]
    for row in evaluation["per_step"]:
        assert row["accuracy_gap"] == 0.0 and row["loss_relative"] <= 1e-5
    final = next(row for row in evaluation["per_step"] if row["step"] == STEPS)
    assert final["modern"]["accuracy"] == pytest.approx(result.metrics.modern["accuracy"], abs=1e-6)


def test_events_per_role_including_the_evaluator(estimator_run):
    result, sides = estimator_run
    roles = {item.scenario: item for item in result.events}
    assert set(roles) == {"chief (chief:0 / worker:0)", "worker (worker:0 / worker:1)", "ps (ps:0)",
                          "evaluator (evaluator:0)"} and all(item.ok for item in roles.values())
    assert {event["event"] for event in roles["chief (chief:0 / worker:0)"].legacy} == {
        "CheckpointSaver", "SummarySaver", "StepCounter", "LoggingTensor"}
    assert {a.by for a in sides["legacy"].traces[1].actions} == {"LoggingTensorHook"}
    assert roles["worker (worker:0 / worker:1)"].modern == []
    evaluator = roles["evaluator (evaluator:0)"]
    assert result.stage("evaluation").details["per_checkpoint"]["checks"]["one_summary_per_evaluation"]
    assert {"phase": "evaluator", "event": "Evaluation", "step": STEPS} in evaluator.legacy
    assert {"phase": "evaluator", "event": "EvalSummary", "step": STEPS} in evaluator.modern


def test_the_modern_side_writes_one_set_of_checkpoints_and_summaries(estimator_run):
    modern = estimator_run[1]["modern"]
    files, pids = modern.files, modern.attempts[0].pids
    assert files.one_writer and files.worker_temp_dirs_left == []
    assert {event["pid"] for event in files.event_files} == {pids["worker:0"]}
    assert [event["pid"] for event in files.eval_event_files] == [pids["evaluator:0"]]
    assert not list(Path(modern.model_dir).glob("**/workertemp_*"))
    assert len(estimator_run[1]["legacy"].files.eval_event_files) == 1


def test_the_report_says_which_cluster_ran_and_shows_the_evaluator(estimator_run, tmp_path):
    written, _ = write_parity_outputs(estimator_run[0], tmp_path)
    report = written["report"].read_text()
    assert "cluster estimator: Estimator train_and_evaluate" in report
    assert "## Evaluator (per checkpoint)" in report and "### evaluator (evaluator:0): match" in report
