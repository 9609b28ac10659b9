"""Frictions of issue 22 (3–7) and issue 28 (5), each run end to end on `pairs/wide_deep_bn.py`: Keras 2's
`WideDeepModel` with two optimizers and batch norm against a model_fn with two TF1 optimizers and UPDATE_OPS.

Every run is tiny (256 synthetic rows, 4 steps of 32); runs shared by several tests are module fixtures.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from migrate.cli import main

PAIR = Path(__file__).resolve().parent / "pairs" / "wide_deep_bn.py"
ROOT = Path(__file__).resolve().parents[3]

pytestmark = [pytest.mark.estimator, pytest.mark.filterwarnings("ignore::UserWarning")]


def run(out: Path, *extra: str) -> tuple[int, str | None]:
    code = main(["parity", "--pair", str(PAIR), "--out", str(out), *extra])
    summary = out / "parity-summary.json"
    return code, summary.read_text() if summary.exists() else None


@pytest.fixture(scope="module")
def twice(tmp_path_factory):
    """The same command twice (with a --param the pair never reads): both summaries, as written; each run also
    records its trace (run1/trace.json), which the Keras 3 test compares against."""
    runs = []
    for index in (1, 2):
        out = tmp_path_factory.mktemp(f"run{index}")
        code, text = run(out, "--param", "never_read=3", "--record", str(out / "trace.json"))
        runs.append((code, text, out))
    return runs


def test_an_optimizer_list_and_batch_norm_state_hold_exact_parity(twice):
    code, text, _ = twice[0]
    summary = json.loads(text)
    assert code == 0, summary["failures"]
    variables, one_step = summary["stages"][0], summary["stages"][2]
    assert [row["tf1"] for row in variables["state_mapping"]] == ["dnn/norm/moving_mean", "dnn/norm/moving_variance"]
    assert "8 trainable variables (and 2 non-trainable state variables)" in variables["message"]
    compared = [row["tf1"] for row in one_step["variables"]]
    assert "dnn/norm/moving_mean" in compared and len(compared) == 10
    # Across versions the first step is bit-identical; later steps agreed to the bit on one CPU and by 1 ulp of the
    # loss on another (TF 2.21's kernels round differently there), which the rounding schedule above allows.
    rows = summary["losses"]["rows"]
    assert rows[0]["step"] == 1 and rows[0]["abs_diff"] == 0.0
    largest_loss = max(max(row["legacy"], row["modern"]) for row in rows)
    assert summary["losses"]["max_abs_loss_diff"] <= 4 * np.spacing(np.float32(largest_loss))


def test_two_runs_of_the_same_command_give_byte_identical_summaries(twice):
    (_, first, _), (_, second, _) = twice
    assert first == second


def test_a_param_the_pair_never_reads_is_reported(twice):
    summary = json.loads(twice[0][1])
    assert "warning: --param never_read=3: the pair never reads params['never_read'] (neither side)" in " ".join(
        summary["notes"])
    assert not any("linear_learning_rate" in note for note in summary["notes"])


def test_params_json_cannot_hold_are_shown_by_repr(twice):
    summary = json.loads(twice[0][1])
    assert summary["config"]["params"]["dtype"] == "tf.float32"


def test_a_train_step_that_reports_no_loss_is_told_what_to_return(tmp_path, capsys):
    code, summary = run(tmp_path, "--param", "keras_quiet=true")
    assert code == 2 and summary is None
    assert "return the step's own loss from train_step, e.g. `return {'step_loss': loss" in capsys.readouterr().err


def test_a_later_divergence_is_located_back_to_the_step_where_the_weights_first_part(tmp_path):
    """The moving mean is nudged by 2^-20 after step 2 (the losses do not see it), the loss skewed at step 4."""
    code, text = run(tmp_path, "--param", "keras_nudge_state_at=2", "--param", "keras_skew_loss_at=4")
    summary = json.loads(text)
    assert code == 1 and summary["first_failing_stage"] == "n-steps"
    message = summary["failures"][0]
    assert "first step beyond tolerance is 4" in message
    assert ("the weights already differ before step 4 (the losses were still within tolerance): first "
            "dnn/norm/moving_mean (Keras norm/moving_mean)") in message
    assert ("they first part at step 2: the weights are identical before step 2; after it the first that differs is "
            "dnn/norm/moving_mean") in message
    # 2^-20 on the moving mean is some ulp of its value, which itself differs in the last bits from CPU to CPU
    # (12 ulp on one machine, 11 on another); the verdict must call it rounding level (our cut: 64 ulp).
    rounding = re.search(r"this differs at rounding level \(≤ (\d+) ulp: dnn/norm/moving_mean\)", message)
    assert rounding and 1 <= int(rounding.group(1)) <= 64 and "--schedule rounding" in message
    assert "the Keras side already runs TF1's update (its TF1-exact twins)" in message
    assert "GradientDescentOptimizer and AdagradOptimizer" in message
    divergence = summary["stages"][3]["divergence"]
    assert divergence["verdict"] == "weights before" and divergence["first_parting"]["step"] == 2


def test_an_optimizer_flag_the_pair_ignores_is_refused_before_training(tmp_path, capsys):
    code, summary = run(tmp_path, "--optimizer", "adam")
    err = capsys.readouterr().err
    assert code == 2 and summary is None
    assert "--optimizer adam (params['optimizer']) reached neither side" in err
    assert "GradientDescentOptimizer and AdagradOptimizer" in err and "[legacy] Estimator" not in err


@pytest.fixture(scope="module")
def warmup(tmp_path_factory):
    out = tmp_path_factory.mktemp("warmup")
    code = main(["parity", "--pair", str(PAIR.parent / "dense_warmup.py"), "--out", str(out)])
    return code, json.loads((out / "parity-summary.json").read_text())


def test_a_step_that_updates_nothing_is_reported_and_the_first_update_is_checked(warmup):
    code, summary = warmup
    one_step = summary["stages"][2]
    assert code == 0, summary["failures"]
    assert one_step["step"] == 2 and one_step["message"].startswith(
        "step 2 (the first that updates a variable: the step before it change none on either side")


def test_probabilities_that_match_the_softmax_of_the_keras_logits_are_said_to(warmup):
    forward = warmup[1]["stages"][1]
    assert forward["status"] == "ok" and forward["output_transform"] == "softmax"
    assert forward["message"].startswith("the model_fn's probabilities match softmax(Keras output): max |Δ| = 0")


def test_initial_values_two_draws_do_not_reproduce_are_named(warmup):
    notes = " ".join(warmup[1]["notes"])
    assert "two draws of the TF1 initial values with the same seed differ for logits/bias" in notes


def test_the_keras_3_idiom_keeps_its_second_optimizer_as_an_attribute_and_holds_against_the_tf215_trace(twice):
    """On Keras 3 the pair's model is a subclass whose train_step applies `self.dnn_optimizer` itself."""
    configured = os.environ.get("MIGRATE_TF221_PYTHON")
    python = Path(configured) if configured else ROOT / ".venv-tf221" / "bin" / "python"
    if not python.exists():
        pytest.skip(f"no TF 2.21 environment at {python}; `python3 dev.py test` creates it")
    trace, out = twice[0][2] / "trace.json", twice[0][2] / "keras3"
    result = subprocess.run(
        [str(python), "-m", "migrate", "parity", "--pair", str(PAIR), "--param", "never_read=3", "--side", "modern",
         "--against", str(trace), "--forward-tolerance", "5e-7", "--schedule", "rounding", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"},
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    summary = json.loads((out / "parity-summary.json").read_text())
    assert summary["versions"]["modern"]["keras"].startswith("3.")
    assert "(and 2 non-trainable state variables)" in summary["stages"][0]["message"]
    assert "loss and all 10 variables after the update are within tolerance" in summary["stages"][2]["message"]
    # Across versions the first step is bit-identical; later steps agreed to the bit on one CPU and by 1 ulp of the
    # loss on another (TF 2.21's kernels round differently there), which the rounding schedule above allows.
    rows = summary["losses"]["rows"]
    assert rows[0]["step"] == 1 and rows[0]["abs_diff"] == 0.0
    largest_loss = max(max(row["legacy"], row["modern"]) for row in rows)
    assert summary["losses"]["max_abs_loss_diff"] <= 4 * np.spacing(np.float32(largest_loss))
