from __future__ import annotations

import json

import numpy as np
import pytest

from migrate.core.side_trace import SideTrace, write_side_trace
from migrate.parity import trace as traces

CONFIG = {"pair": "mnist", "mode": "exact", "steps": 3, "seed": 1,
          "params": {"optimizer": "sgd", "batch_size": 128, "learning_rate": 0.05, "dropout_rate": 0.0, "shuffle": False}}


def recorded(tmp_path, weights=None):
    weights = weights or {"fc1/weights": np.arange(6, dtype=np.float32).reshape(2, 3) / 7}
    path = tmp_path / "t.json"
    sides = {"legacy": SideTrace("legacy", losses={1: float(np.float32(2.302585)), 2: float("nan")})}
    write_side_trace(path, traces.RecordedRun(CONFIG, sides, weights))
    return path, weights


def test_round_trip_keeps_float32_bits_and_weights(tmp_path):
    path, weights = recorded(tmp_path)
    loaded = traces.read_trace(path)
    assert np.float32(loaded.sides["legacy"].losses[1]) == np.float32(2.302585)
    assert np.isnan(loaded.sides["legacy"].losses[2]), "a NaN loss survives the file"
    json.loads(path.read_text(), parse_constant=pytest.fail)  # strict JSON: no bare NaN token
    decoded = loaded.initial_weights
    np.testing.assert_array_equal(decoded["fc1/weights"], weights["fc1/weights"])
    assert decoded["fc1/weights"].dtype == np.float32


def test_string_arrays_round_trip_item_by_item(tmp_path):
    classes = np.array([[b"Adelie"], [b"Gentoo"]], dtype=object)
    path, _ = recorded(tmp_path, {"classes": classes, "labels": np.array(["a", "bc"], dtype=object)})
    decoded = traces.read_trace(path).initial_weights
    assert decoded["classes"].shape == (2, 1) and decoded["classes"].tolist() == [[b"Adelie"], [b"Gentoo"]]
    assert decoded["labels"].tolist() == [b"a", b"bc"]


def test_corrupt_json_is_a_clear_error(tmp_path):
    path, _ = recorded(tmp_path)
    path.write_text(path.read_text()[:50])
    with pytest.raises(traces.TraceError, match="not valid JSON.*corrupt or truncated"):
        traces.read_trace(path)


def test_missing_trace_file(tmp_path):
    with pytest.raises(traces.TraceError, match="cannot read trace"):
        traces.read_trace(tmp_path / "nope.json")


def test_format_version_mismatch(tmp_path):
    path, _ = recorded(tmp_path)
    data = json.loads(path.read_text())
    data["format_version"] = 99
    path.write_text(json.dumps(data))
    with pytest.raises(traces.TraceError, match=f"format version 99.*reads version {traces.TRACE_FORMAT_VERSION}"):
        traces.read_trace(path)


def test_a_version_2_trace_is_refused_naming_the_fix(tmp_path):
    path, _ = recorded(tmp_path)
    data = json.loads(path.read_text())
    path.write_text(json.dumps(dict(data, format_version=2)))
    with pytest.raises(traces.TraceError, match="format version 2, this toolkit reads version 3. Record it again"):
        traces.read_trace(path)


def test_a_damaged_side_names_its_field(tmp_path):
    path, _ = recorded(tmp_path)
    data = json.loads(path.read_text())
    data["sides"]["legacy"]["losses"] = {"one": 1.0}
    path.write_text(json.dumps(data))
    with pytest.raises(traces.TraceError, match=r"sides.legacy.losses: the key 'one' is not a step.*record it again"):
        traces.read_trace(path)


def test_not_a_trace(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"hello": 1}))
    with pytest.raises(traces.TraceError, match="not a tf1-migrate parity trace"):
        traces.read_trace(path)


def test_other_config_names_the_difference_and_the_flags(tmp_path):
    path, _ = recorded(tmp_path)
    loaded = traces.read_trace(path)
    with pytest.raises(traces.TraceError, match=r"steps: trace 3 vs now 300.*--steps 3"):
        traces.check_config_matches(loaded, dict(CONFIG, steps=300), path)
    traces.check_config_matches(loaded, dict(CONFIG), path)


def test_other_params_are_named(tmp_path):
    path, _ = recorded(tmp_path)
    loaded = traces.read_trace(path)
    other = dict(CONFIG, params={**CONFIG["params"], "learning_rate": 0.1})
    with pytest.raises(traces.TraceError, match=r"params: trace .*'learning_rate': 0.05.* vs now .*'learning_rate': 0.1"):
        traces.check_config_matches(loaded, other, path)
