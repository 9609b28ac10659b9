"""`migrate parity --pair FILE` end to end on a small dense pair: parity holds, the four classic
migration slips are caught at the stage where they show, and bad input exits 2.

Real Estimator, real Keras, real MNIST (512 images, 6 steps of batch 64).
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from migrate.cli import main

PAIRS = Path(__file__).resolve().parent / "pairs"
DENSE = PAIRS / "dense.py"

pytestmark = [pytest.mark.estimator, pytest.mark.filterwarnings("ignore:`tf.layers.dense` is deprecated:UserWarning")]


def run_pair(pair: Path, out: Path, *extra: str) -> tuple[int, dict | None]:
    code = main(["parity", "--pair", str(pair), "--out", str(out), *extra])
    summary = out / "parity-summary.json"
    return code, json.loads(summary.read_text()) if summary.exists() else None


@pytest.fixture(scope="module")
def matching(tmp_path_factory):
    out = tmp_path_factory.mktemp("dense")
    return run_pair(DENSE, out)


def test_a_matching_pair_holds_at_every_stage(matching):
    code, summary = matching
    assert [(stage["stage"], stage["status"]) for stage in summary["stages"]] == [
        ("variables", "ok"), ("forward", "ok"), ("one-step", "ok"), ("n-steps", "ok"), ("evaluation", "ok"),
    ]
    assert summary["losses"]["max_abs_loss_diff"] == 0.0 and summary["losses"]["steps_compared"] == 6
    assert summary["metrics"]["legacy"]["accuracy"] == summary["metrics"]["modern"]["accuracy"]
    assert code == 0, summary["failures"]


def test_the_mapping_went_by_name(matching):
    _, summary = matching
    mapping = summary["stages"][0]["mapping"]
    assert [(row["tf1"], row["keras"], row["how"]) for row in mapping] == [
        ("hidden/kernel", "hidden/kernel", "name"), ("hidden/bias", "hidden/bias", "name"),
        ("logits/kernel", "logits/kernel", "name"), ("logits/bias", "logits/bias", "name"),
    ]


BROKEN = {
    "broken_activation": ("forward", "the layer with hidden/kernel gets the same input on both sides, the layer with logits/kernel does not"),
    "broken_bias_initializer": ("variables", "hidden/bias is initialised to the constant 0 in TF1 but hidden/bias to 1"),
    "broken_loss_reduction": ("one-step", "the loss of step 1 differs"),
    "broken_dropout": ("one-step", "first variable that differs after the update: hidden/kernel"),
}


@pytest.mark.parametrize("variant", list(BROKEN))
def test_a_keras_side_that_differs_in_one_detail_is_caught_at_its_stage(variant, tmp_path, capsys):
    stage, words = BROKEN[variant]
    code, summary = run_pair(PAIRS / f"{variant}.py", tmp_path)
    out = capsys.readouterr().out
    assert code == 1
    assert summary["first_failing_stage"] == stage
    assert words in summary["failures"][0]
    assert "PARITY BROKEN at stage" in out and words in out


def test_show_mapping_prints_the_table_and_trains_nothing(tmp_path, capsys):
    code, summary = run_pair(DENSE, tmp_path, "--show-mapping")
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and summary is None
    assert lines[0].split() == ["TF1", "variable", "shape", "Keras", "weight", "shape", "transform", "matched", "by"]
    assert lines[1].split() == ["hidden/kernel", "(784,", "32)", "hidden/kernel", "(784,", "32)", "-", "name"]


def variant(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "variant.py"
    path.write_text(f"import sys\nsys.path.insert(0, {str(PAIRS)!r})\nimport dense\nfrom dense import *\n"
                    + textwrap.dedent(body))
    return path


BAD_INPUT = {
    "batch sizes differ": (
        "def train_dataset(params):\n    return dense.train_dataset({**params, 'batch_size': 32})\n",
        "the first batches differ in batch size or element structure: train_input_fn gives features (64, 784), "
        "labels (64,), train_dataset gives features (32, 784), labels (32,)",
    ),
    "element structure differs": (
        "def train_dataset(params):\n    return dense.train_dataset(params).map(lambda x, y: ({'pixels': x}, y))\n",
        "train_dataset gives features/pixels (64, 784)",
    ),
    "dataset shorter than --steps": (
        "def train_dataset(params):\n    return dense.train_dataset(params).take(3)\n",
        "train_dataset(params) ran out after 3 batches, but --steps asks for 6",
    ),
    "variable_map naming a weight that does not exist": (
        "variable_map = {'hidden/kernel': 'hiden/kernel'}\n",
        "variable_map names the Keras weight 'hiden/kernel', which build_model's model does not have",
    ),
    "a pair function raises": (
        "def build_model(params):\n    raise RuntimeError('no GPU here')\n",
        "build_model(params) raised RuntimeError: no GPU here (at line 6",
    ),
    "shapes that cannot match": (
        "def build_model(params):\n    return dense.build_model({**params, 'keras_units': 16})\n",
        "weights with no counterpart (no weight left on the other side has their shape, and no named transform "
        "fits):\nTF1 variables (3 of 4):\n  hidden/kernel (784, 32), 25088 elements\n  hidden/bias (32,), 32 elements",
    ),
    "a transform whose output shape does not fit": (
        "variable_map = {'logits/kernel': ('logits/kernel', 'transposed_dense')}\n",
        "variable_map maps logits/kernel (32, 10) onto logits/kernel (32, 10) with transposed_dense, which does not fit: "
        "transposed_dense turns a (classes, d) kernel into (d, classes), not (32, 10) into (32, 10)",
    ),
    "a keras weight named twice": (
        "variable_map = {'hidden/bias': 'logits/bias', 'logits/bias': 'logits/bias'}\n",
        "variable_map sends both 'hidden/bias' and 'logits/bias' to the Keras weight logits/bias",
    ),
}


@pytest.mark.parametrize("case", list(BAD_INPUT))
def test_bad_input_exits_2_naming_what_to_fix(case, tmp_path, capsys):
    body, message = BAD_INPUT[case]
    path = variant(tmp_path, body)
    code, summary = run_pair(path, tmp_path / "out")
    err = capsys.readouterr().err
    assert code == 2 and summary is None
    assert message in err and str(path) in err


def test_nan_is_reported_at_the_step_where_it_appears(tmp_path):
    code, summary = run_pair(DENSE, tmp_path, "--param", "nan_in_batch=4")
    assert code == 1
    assert summary["first_failing_stage"] == "n-steps"
    assert summary["failures"][0].startswith("losses: NaN or missing loss at step 4: legacy nan vs modern nan")


def test_hook_and_callback_twins_are_compared_event_by_event(tmp_path):
    code, summary = run_pair(PAIRS / "dense_with_hooks.py", tmp_path / "twins")
    assert code == 0, summary["failures"]
    assert summary["events"]["train (pair hooks)"]["ok"] and summary["losses"]["steps_compared"] == 3
    code, summary = run_pair(PAIRS / "dense_with_hooks.py", tmp_path / "wrong", "--param", "keras_stop_at=4")
    assert code == 1 and summary["first_failing_stage"] == "n-steps"
    assert summary["events"]["train (pair hooks)"]["first_divergence"] == {
        "index": 8, "legacy": "train:request_stop step=3", "modern": "train:before_run step=4"}
