"""A finished parity run is never lost: outputs checked before training, written atomically, strict JSON,
the plot optional."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.cli import main
from migrate.core.cli import UsageError
from migrate.parity.compare import compare_losses
from migrate.parity.outputs import check_output_dir, strict_json, write_parity_outputs
from migrate.parity.result import ParityResult
from migrate.parity.stages import Stage, check_n_steps
from migrate.parity.tolerance import EXACT_SGD

WITHOUT_TENSORFLOW = (
    "import sys\n"
    "for name in ('tensorflow', 'tensorflow_estimator', 'keras'):\n"
    "    sys.modules[name] = None  # importing it would fail: proves nothing trained before the check\n"
    "from migrate.cli import main\n"
    "raise SystemExit(main(sys.argv[1:]))\n"
)


def _parity(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", WITHOUT_TENSORFLOW, "parity", "--steps", "20", *argv],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)


def test_an_unwritable_out_fails_before_training_with_exit_2(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("keep me\n")
    completed = _parity(tmp_path, "--out", "a-file")
    assert completed.returncode == 2, completed.stderr
    assert "--out a-file exists and is not a directory" in completed.stderr
    assert "needs `tensorflow`" not in completed.stderr, "the check must come before anything is trained"
    assert (tmp_path / "a-file").read_text() == "keep me\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["--out", "a-file/sub"], "--out {tmp}/a-file/sub cannot be written (Not a directory)",
                     id="--out under a file"),
        pytest.param(["--out", "/proc/parity-out"], "--out /proc/parity-out cannot be written", id="--out nobody can write"),
        pytest.param(["--record", "a-dir"], "--record {tmp}/a-dir is a directory: name a file", id="--record a directory"),
    ],
)
def test_every_output_path_is_checked_first(tmp_path: Path, capsys, argv: list[str], message: str) -> None:
    (tmp_path / "a-file").write_text("keep me\n")
    (tmp_path / "a-dir").mkdir()
    argv = [str(tmp_path / item) if item.startswith("a-") else item for item in argv]
    assert main(["parity", "--steps", "20", "--out", str(tmp_path / "out"), *argv]) == 2
    assert message.format(tmp=tmp_path) in capsys.readouterr().err


def test_a_writable_out_is_created(tmp_path: Path) -> None:
    check_output_dir(tmp_path / "new" / "out", "--out")
    assert (tmp_path / "new" / "out").is_dir() and not list((tmp_path / "new" / "out").iterdir())
    with pytest.raises(UsageError):
        check_output_dir(Path("/proc/x"), "--out")


def test_json_is_strict_and_names_non_finite_values() -> None:
    text = strict_json({"loss": float("nan"), "rows": [float("inf"), -float("inf"), 1.5], 3: None})
    assert json.loads(text, parse_constant=lambda token: pytest.fail(f"bare {token} in the JSON")) == {
        "loss": {"float": "NaN"}, "rows": [{"float": "Infinity"}, {"float": "-Infinity"}, 1.5], "3": None}
    assert [float(value) for value in ("NaN", "Infinity", "-Infinity")]  # the spellings float() reads back


@pytest.fixture
def nan_result() -> ParityResult:
    """A real loss comparison whose modern loss became NaN at step 3."""
    losses = compare_losses({1: 2.3, 2: 2.1, 3: 1.9}, {1: 2.3, 2: 2.1, 3: float("nan")}, EXACT_SGD)
    stages = [Stage("variables", "ok", "4 variables"), check_n_steps(losses, [])]
    return ParityResult({"pair": "mnist", "mode": "exact", "steps": 3, "seed": 42, "params": {"optimizer": "sgd"}},
                        {"legacy": {"tensorflow": "2.15.1"}, "modern": {"tensorflow": "2.15.1"}}, stages, losses)


def test_without_matplotlib_the_report_is_still_written(nan_result: ParityResult, tmp_path: Path, monkeypatch) -> None:
    for name in [name for name in sys.modules if name == "matplotlib" or name.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    written, notes = write_parity_outputs(nan_result, tmp_path)
    assert set(written) == {"summary", "report"} and sorted(path.name for path in tmp_path.iterdir()) == [
        "parity-report.md", "parity-summary.json"]
    assert notes == ["the loss plot parity-losses.png was not drawn: matplotlib is not installed "
                     "(`pip install matplotlib`, or install the tf215/tf221 extra)"]
    assert notes[0] in (tmp_path / "parity-report.md").read_text()
    summary = json.loads((tmp_path / "parity-summary.json").read_text(),
                         parse_constant=lambda token: pytest.fail(f"bare {token} in parity-summary.json"))
    assert summary["ok"] is False and summary["losses"]["rows"][2]["modern"] == {"float": "NaN"}
