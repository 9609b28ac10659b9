"""`migrate parity --workers 2 --evaluator`: the Estimator cluster (chief, worker, ps, evaluator) and its TF2 twin.

One shared run (module-scoped) on TF 2.15, the legacy side needs tf.estimator.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from migrate.parity.distributed.report import REPORT_MD, write_outputs
from migrate.parity.distributed.run import DistributedConfig, run_distributed

pytestmark = pytest.mark.estimator
STEPS, SAVE_STEPS = 12, 4


@pytest.fixture(scope="module")
def estimator_run(tmp_path_factory, mnist):
    config = DistributedConfig(
        workers=2, steps=STEPS, global_batch_size=64, save_steps=SAVE_STEPS, log_steps=SAVE_STEPS,
        train_examples=512, test_examples=200, timeout=240, evaluator=True,
    )
    return run_distributed(config, mnist, tmp_path_factory.mktemp("estimator") / "run", progress=lambda _: None)


def test_parity_holds_with_bit_identical_losses(estimator_run):
    assert estimator_run["ok"], estimator_run["checks"]
    assert estimator_run["config"]["cluster"] == "estimator"
    assert [row[0] for row in estimator_run["losses"]["per_step"]] == list(range(1, STEPS + 1))
    assert estimator_run["losses"]["max_abs_loss_diff"] == 0.0
    assert estimator_run["metrics"]["legacy"]["accuracy"] == estimator_run["metrics"]["modern"]["accuracy"]


@pytest.mark.parametrize("side", ["legacy", "modern"])
def test_the_evaluator_evaluated_the_chiefs_checkpoints_up_to_the_last_step(estimator_run, side):
    checkpoints = estimator_run["sides"][side]["files"]["checkpoint_steps"]
    assert checkpoints == list(range(0, STEPS + 1, SAVE_STEPS))
    evaluations = estimator_run["sides"][side]["evaluator"]["evaluations"]
    steps = [record["step"] for record in evaluations]
    assert steps == sorted(set(steps)) and set(steps) <= set(checkpoints) and steps[-1] == STEPS
    assert [record["checkpoint"] for record in evaluations] == [f"model.ckpt-{step}" for step in steps]


def test_the_evaluators_agree_at_every_checkpoint_both_evaluated(estimator_run):
    evaluation = estimator_run["evaluation"]
    assert evaluation["ok"] and STEPS in evaluation["common_steps"] and evaluation["full_batches"]
    for row in evaluation["per_step"]:
        assert row["accuracy_gap"] == 0.0 and row["loss_abs_diff"] <= 1e-5 * row["legacy"]["loss"]
    final = next(row for row in evaluation["per_step"] if row["step"] == STEPS)
    assert final["modern"]["accuracy"] == pytest.approx(estimator_run["metrics"]["modern"]["accuracy"], abs=1e-6)


def test_events_per_role_including_the_evaluator(estimator_run):
    roles = {role["role"]: role for role in estimator_run["roles"]}
    assert set(roles) == {"chief", "worker", "ps", "evaluator"} and all(role["ok"] for role in roles.values())
    assert roles["chief"]["task"] == "chief:0 / worker:0"
    assert {name for name, _ in roles["chief"]["legacy_normalized"]} == {
        "CheckpointSaver", "SummarySaver", "StepCounter", "LoggingTensor"}
    assert {a["hook"] for a in roles["worker"]["legacy"]} == {"LoggingTensorHook"} and roles["worker"]["modern"] == []
    evaluator = roles["evaluator"]
    assert evaluator["one_summary_per_evaluation"]
    assert ("Evaluation", STEPS) in evaluator["legacy_normalized"] and ("EvalSummary", STEPS) in evaluator["modern_normalized"]


def test_the_modern_side_writes_one_set_of_checkpoints_and_summaries(estimator_run):
    modern = estimator_run["sides"]["modern"]
    files, pids = modern["files"], modern["attempts"][0]["pids"]
    assert files["one_writer"] and files["worker_temp_dirs_left"] == []
    assert {event["pid"] for event in files["event_files"]} == {pids["worker:0"]}
    assert [event["pid"] for event in files["eval_event_files"]] == [pids["evaluator:0"]]
    assert not list(Path(modern["model_dir"]).glob("**/workertemp_*"))
    assert len(estimator_run["sides"]["legacy"]["files"]["eval_event_files"]) == 1


def test_the_report_says_which_cluster_ran_and_shows_the_evaluator(estimator_run, tmp_path):
    write_outputs(estimator_run, tmp_path)
    report = (tmp_path / REPORT_MD).read_text()
    assert "cluster estimator: Estimator train_and_evaluate" in report
    assert "## Evaluator (per checkpoint)" in report and "### evaluator (evaluator:0): same" in report
