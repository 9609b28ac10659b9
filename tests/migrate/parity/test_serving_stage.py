"""Stage 6, serving, on a regression pair, and the serving stage's bad input (exit 2, naming the side).

The pair (`pairs/dnn_regressor.py`: the canned `DNNRegressor` against a Keras
MLP, 5 steps) runs once through the CLI with a trace; the bad-input tests
reuse its exports, trace and a one-step Estimator, so nothing trains long.
The MNIST pair's serving (predict, classify, raw images; the slips a Keras
export makes) is tested with the acceptance run in `test_parity_command.py`.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from migrate.cli import main
from migrate.parity.pair import PairError, load_pair, pair_from

PAIRS = Path(__file__).resolve().parent / "pairs"
REGRESSOR = PAIRS / "dnn_regressor.py"


@pytest.fixture(scope="module")
def regressor(tmp_path_factory):
    out = tmp_path_factory.mktemp("regressor")
    code = main(["parity", "--pair", str(REGRESSOR), "--out", str(out), "--record", str(out / "trace.json")])
    return code, out


@pytest.mark.estimator
def test_a_regression_pair_serves_like_the_canned_regressor(regressor):
    code, out = regressor
    summary = json.loads((out / "parity-summary.json").read_text())
    serving = summary["stages"][5]
    assert serving["stage"] == "serving" and serving["status"] == "ok", serving["message"]
    assert {key: item["method"] for key, item in serving["signatures"].items()} == {
        "serving_default": "tensorflow/serving/regress", "regression": "tensorflow/serving/regress",
        "predict": "tensorflow/serving/predict", "raw:predict": "tensorflow/serving/predict"}
    assert serving["signatures"]["regression"]["outputs"] == {"outputs": "float32 (None, 1)"}
    assert serving["signatures"]["raw:predict"]["inputs"] == {"x": "float32 (None, 4)"}, "a raw tensor per feature"
    assert serving["requests"] == 256 and serving["max_abs_diff"] == 0.0
    report = (out / "parity-report.md").read_text()
    assert "## 4. Serving" in report and "| `regression` | regress | `inputs` string (None,) |" in report
    assert code == 0, summary["failures"]


@pytest.mark.estimator
def test_a_recorded_savedmodel_that_is_not_one_is_a_usage_error(regressor, tmp_path, capsys):
    _, out = regressor
    trace = json.loads((out / "trace.json").read_text())
    assert trace["sides"]["legacy"]["files"]["saved_model"] == str((out / "serving" / "legacy").resolve())
    not_a_savedmodel = tmp_path / "export"
    not_a_savedmodel.mkdir()
    (not_a_savedmodel / "model.ckpt.index").write_bytes(b"")
    trace["sides"]["legacy"]["files"]["saved_model"] = str(not_a_savedmodel)
    (tmp_path / "trace.json").write_text(json.dumps(trace))
    code = main(["parity", "--pair", str(REGRESSOR), "--side", "modern", "--against", str(tmp_path / "trace.json"),
                 "--out", str(tmp_path / "out")])
    assert code == 2
    assert f"legacy side: {not_a_savedmodel} is not a SavedModel (no saved_model.pb in it)" in capsys.readouterr().err


def test_serving_functions_come_in_pairs():
    functions = {name: (lambda *args: None) for name in ("model_fn", "train_input_fn", "build_model", "train_dataset")}
    with pytest.raises(PairError, match=r"defines serving_input_receiver_fn but not serving_signatures \(the Keras model's signatures"):
        pair_from({**functions, "serving_input_receiver_fn": lambda params: None})
    with pytest.raises(PairError, match=r"defines serving_signatures but not serving_input_receiver_fn \(the Estimator's serving input receiver"):
        pair_from({**functions, "serving_signatures": lambda model, params: {}})


@pytest.fixture(scope="module")
def one_step_estimator(tmp_path_factory):
    """The regressor pair's Estimator after one step: a checkpoint to export from."""
    from migrate.parity.sides import legacy_side

    pair = load_pair(REGRESSOR)
    model_dir = tmp_path_factory.mktemp("estimator")
    legacy_side.estimator(pair, pair.params, 42, model_dir).train(lambda: pair.call("train_input_fn", pair.params),
                                                                  max_steps=1)
    return pair, model_dir


def _leftovers(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir()) if directory.exists() else []


@pytest.mark.estimator
def test_a_receiver_that_fails_names_the_legacy_side_and_leaves_nothing(one_step_estimator, tmp_path):
    from migrate.parity.serving.stage import export_legacy

    pair, model_dir = one_step_estimator

    def receiver(params):
        raise KeyError("image")

    broken = pair_from({**pair.functions, "serving_input_receiver_fn": receiver}, origin=pair.origin)
    with pytest.raises(PairError, match=r"legacy side: Estimator.export_saved_model failed: .*"
                                        r"serving_input_receiver_fn\(params\) raised KeyError: 'image'"):
        export_legacy(broken, pair.params, 42, model_dir, tmp_path / "serving" / "legacy", lambda message: None)
    assert _leftovers(tmp_path / "serving") == []


@pytest.mark.estimator
def test_a_keras_export_that_fails_names_the_modern_side_and_keeps_the_earlier_one(tmp_path):
    import tensorflow as tf

    from migrate.parity.serving.export import export_keras

    pair = load_pair(REGRESSOR)
    model = pair.call("build_model", pair.params)
    target = tmp_path / "modern"
    signatures = pair.call("serving_signatures", model, pair.params)
    export_keras(model, signatures, target)
    earlier = (target / "saved_model.pb").read_bytes()
    with pytest.raises(PairError, match="modern side: exporting the Keras model with serving_signatures failed"):
        export_keras(model, {"predict": tf.function(lambda x: {"y": model(x)})}, target)  # no input signature
    assert (target / "saved_model.pb").read_bytes() == earlier
    assert _leftovers(tmp_path) == ["modern"]
    with pytest.raises(PairError, match=r"modern side: serving_signatures gives 'regression' the method 'regression'"):
        export_keras(model, {"regression": (signatures["regression"].function, "regression")}, target)


@pytest.mark.estimator
def test_the_three_readings_of_a_savedmodel_are_cross_checked(regressor):
    """saved_model.pb, tf.saved_model.load and saved_model_cli must agree; a listing that does not is refused."""
    from migrate.parity.serving.surface import cross_check, read_surface, signatures_from_cli_text

    _, out = regressor
    surface = read_surface(out / "serving" / "legacy", "legacy")
    assert signatures_from_cli_text(surface.saved_model_cli) == surface.signatures
    assert surface.parsed_features["x"].describe() == "float32 [4] (dense)"
    surface.saved_model_cli = surface.saved_model_cli.replace("tensorflow/serving/regress", "tensorflow/serving/predict")
    with pytest.raises(PairError, match=r"legacy side: .* is inconsistent: .*saved_model_cli shows `regression` as predict \(`inputs` string "
                                        r"\(None,\) → `outputs` float32 \(None, 1\)\), saved_model.pb as regress"):
        cross_check(surface, "legacy")


@pytest.mark.estimator
def test_a_signature_input_that_is_no_python_name_reads_as_its_key(tmp_path):
    """tf.saved_model.load names a `curb-weight` input `curb_weight` (its spec keeps the key, and a call by the key
    works), so the three readings agree on the proto's key: a feature named like a pandas column is served."""
    import tensorflow as tf

    from migrate.parity.serving.check import answer
    from migrate.parity.serving.export import export_keras
    from migrate.parity.serving.surface import read_surface

    pair = load_pair(REGRESSOR)
    model = pair.call("build_model", pair.params)
    spec = tf.TensorSpec([None, 4], tf.float32, name="curb-weight")
    export_keras(model, {"predict": tf.function(lambda x: {"y": model(x)}, input_signature=[spec])}, tmp_path / "modern")
    surface = read_surface(tmp_path / "modern", "modern")
    assert list(surface.signatures["predict"].inputs) == ["curb-weight"]
    assert answer(surface.functions["predict"], {"curb-weight": [[1.0, 2.0, 3.0, 4.0]]})["y"].shape == (1, 1)
