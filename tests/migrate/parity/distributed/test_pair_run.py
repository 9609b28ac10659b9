"""`migrate parity --pair FILE --workers 2` on an example pair nobody wrote for the clusters (examples/tf1_idiom).

One run through the real CLI, shared by the module: both clusters of the
pair (its model_fn under `SyncReplicasOptimizer`, its Keras model under
`MultiWorkerMirroredStrategy`). Small params (`--param`) keep it short; the
fault runs (``--kill``, two more cluster starts) are `bench.distributed_pairs`'s.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from migrate.cli import main

pytestmark = pytest.mark.estimator

PAIR = Path(__file__).resolve().parents[4] / "examples" / "tf1_idiom" / "pair.py"
STEPS, SAVE_STEPS = 8, 4


@pytest.fixture(scope="module")
def pair_run(tmp_path_factory, mnist):
    out = tmp_path_factory.mktemp("pair-distributed")
    code = main(["parity", "--pair", str(PAIR), "--workers", "2", "--steps", str(STEPS),
                 "--save-checkpoints-steps", str(SAVE_STEPS),
                 "--param", "train_examples=512", "--param", "eval_examples=128", "--param", "lstm_units=8",
                 "--param", "dense_units=8", "--timeout", "300", "--out", str(out)])
    return code, json.loads((out / "parity-summary.json").read_text())


def test_the_pairs_clusters_train_bit_identical_losses(pair_run):
    code, summary = pair_run
    sides = summary["stages"][0]["sides"]
    assert code == 0, summary["failures"]
    assert sides["legacy"]["engine"].startswith("model_fn + SyncReplicasOptimizer")
    assert sides["modern"]["engine"].startswith("build_model + MultiWorkerMirroredStrategy")
    rows = summary["losses"]["rows"]
    assert [row["step"] for row in rows] == list(range(1, STEPS + 1))
    assert all(row["legacy"] == row["modern"] for row in rows) and summary["losses"]["max_abs_loss_diff"] == 0.0


def test_the_chiefs_evaluate_the_pairs_eval_input_on_the_same_weights(pair_run):
    metrics = pair_run[1]["metrics"]
    assert metrics["legacy"]["global_step"] == metrics["modern"]["global_step"] == STEPS
    assert metrics["legacy"]["accuracy"] == metrics["modern"]["accuracy"]


@pytest.mark.parametrize("argv, message", [
    pytest.param(["--record", "trace.json"], "--record (traces are recorded by single-process runs", id="record"),
    pytest.param(["--show-mapping"], "--show-mapping (the mapping is the single-process one", id="show mapping"),
    pytest.param(["--loss-tolerance", "0.1"], "--loss-tolerance (the distributed verdict has its own tolerances",
                 id="single-process tolerance"),
])
def test_flags_that_cannot_apply_to_a_pairs_distributed_run_are_refused_with_the_reason(argv, message, capsys,
                                                                                        tmp_path):
    assert main(["parity", "--pair", str(PAIR), "--workers", "2", "--out", str(tmp_path), *argv]) == 2
    assert f"cannot be combined with --workers: {message}" in capsys.readouterr().err
    assert not (tmp_path / "distributed-run").exists()
