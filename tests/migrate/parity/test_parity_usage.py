"""Bad input to `migrate parity` exits 2 with a clear message, before any training."""
from __future__ import annotations

import json

from migrate.cli import main
from migrate.core.side_trace import SideTrace, write_side_trace
from migrate.parity import trace as traces


def run(args, capsys):
    code = main(["parity", *args])
    return code, capsys.readouterr().err


def test_modern_side_needs_a_trace(capsys):
    code, err = run(["--side", "modern"], capsys)
    assert code == 2 and "--side modern needs --against TRACE" in err


def test_unknown_scenario(capsys):
    code, err = run(["--scenarios", "warp-drive"], capsys)
    assert code == 2 and "scenarios (--scenarios): 'warp-drive' is not one of" in err


def test_bad_override(capsys):
    code, err = run(["--modern-override", "epsilon"], capsys)
    assert code == 2 and "expects KEY=VALUE" in err


def test_corrupt_trace(tmp_path, capsys):
    path = tmp_path / "trace.json"
    path.write_text('{"format": "tf1-migrate-parity-trace", "format_vers')
    code, err = run(["--side", "modern", "--against", str(path)], capsys)
    assert code == 2 and "not valid JSON" in err and str(path) in err


def test_trace_format_version_mismatch(tmp_path, capsys):
    path = tmp_path / "trace.json"
    path.write_text(json.dumps({"format": traces.TRACE_FORMAT, "format_version": 0, "config": {}, "sides": {},
                                "initial_weights": {}}))
    code, err = run(["--side", "modern", "--against", str(path)], capsys)
    assert code == 2 and "format version 0" in err


def test_trace_from_another_config(tmp_path, capsys):
    from migrate.parity.config import config_for
    from migrate.parity.options import ParityOptions
    from migrate.parity.pair import load_pair

    recorded = config_for(load_pair("mnist"), ParityOptions(steps=50, scenarios=("train-steps",))).as_dict()
    path = tmp_path / "trace.json"
    write_side_trace(path, traces.RecordedRun(recorded, {"legacy": SideTrace("legacy")}, {}))
    code, err = run(["--side", "modern", "--against", str(path), "--steps", "300"], capsys)
    assert code == 2
    assert "recorded with another config (steps: trace 50 vs now 300)" in err and "--steps 50" in err


def test_a_statistical_run_shorter_than_its_bars_calibration_is_refused_naming_it(capsys):
    code, err = run(["--mode", "statistical", "--steps", "200"], capsys)
    assert code == 2
    assert "--steps 200 is below the 2000 steps the statistical bars are calibrated for" in err
    assert "the pair's ACCURACY_BAR 98% (--accuracy-bar)" in err and "--max-accuracy-gap" in err


def test_an_unknown_tolerance_schedule_is_a_usage_error(capsys):
    code, err = run(["--schedule", "lenient"], capsys)
    assert code == 2 and "invalid choice: 'lenient'" in err


def test_a_trace_whose_legacy_side_lacks_what_the_stages_read_is_refused(tmp_path, capsys):
    """A role program's trace (no first batch, no variables) is not a recorded legacy side: exit 2, naming the fix."""
    from migrate.parity.config import config_for
    from migrate.parity.pair import load_pair

    recorded = config_for(load_pair("mnist")).as_dict()
    path = tmp_path / "trace.json"
    write_side_trace(path, traces.RecordedRun(recorded, {"legacy": SideTrace("legacy", losses={1: 2.3})}, {}))
    code, err = run(["--side", "modern", "--against", str(path)], capsys)
    assert code == 2 and "holds no legacy side (with its first batch)" in err and "--side legacy --record" in err
