"""`migrate report`, `migrate rules`, `migrate explain` through `main([...])`: output and exit codes."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.cli import main

TF1 = "import tensorflow as tf\nsess = tf.Session()\n"


@pytest.fixture
def project(write, tmp_path: Path) -> Path:
    write("clean.py", "import os\n")
    return tmp_path


@pytest.mark.parametrize(
    ("files", "extra", "code"),
    [
        pytest.param({"clean.py": "import os\n"}, [], 0, id="no findings exits 0"),
        pytest.param({"tf1.py": TF1}, [], 1, id="findings exit 1"),
        pytest.param({"tf1.py": TF1}, ["--exit-zero"], 0, id="--exit-zero"),
        pytest.param({"tf1.py": TF1}, ["--ignore", "TFM303"], 0, id="all findings ignored"),
        pytest.param({"bad.py": "print 'x'\n"}, [], 2, id="every file unscannable exits 2"),
        pytest.param({"bad.py": "print 'x'\n", "clean.py": "import os\n"}, [], 0, id="some skipped files exit 0"),
        pytest.param({"tf1.py": TF1}, ["--select", "TFM999"], 2, id="unknown code is a usage error"),
        pytest.param({"tf1.py": TF1}, ["--format", "xml"], 2, id="unknown format is a usage error"),
        pytest.param({"tf1.py": TF1}, ["--jobs", "-1"], 2, id="negative jobs is a usage error"),
    ],
)
def test_report_exit_codes(files, extra, code, write, tmp_path: Path, capsys) -> None:
    for name, source in files.items():
        write(name, source)
    assert main(["report", str(tmp_path), "--callbacks-dir", str(tmp_path / "none"), *extra]) == code


def test_missing_path_is_a_usage_error(tmp_path: Path, capsys) -> None:
    assert main(["report", str(tmp_path / "nope")]) == 2
    assert "no such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "sarif"])
def test_output_file(fmt: str, write, tmp_path: Path, capsys) -> None:
    write("src/tf1.py", TF1)
    out = tmp_path / f"report.{fmt}"
    assert main(["report", str(tmp_path / "src"), "--format", fmt, "--output", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "wrote" in captured.err
    text = out.read_text()
    assert "TFM303" in text
    if fmt in ("json", "sarif"):
        json.loads(text)


def test_no_progress_when_stderr_is_not_a_terminal(write, tmp_path: Path, capsys) -> None:
    write("tf1.py", TF1)
    main(["report", str(tmp_path)])
    assert "files" not in capsys.readouterr().err


def test_emit_callbacks(write, tmp_path: Path, capsys) -> None:
    write("src/hooks.py", "import tensorflow as tf\nclass H(tf.train.SessionRunHook):\n    def end(self, session):\n        pass\n")
    assert main(["report", str(tmp_path / "src"), "--emit-callbacks", str(tmp_path / "cb"), "--exit-zero"]) == 0
    assert (tmp_path / "cb" / "h_callback.py").exists()
    assert "wrote 1 callback skeleton(s)" in capsys.readouterr().err


def test_rules_lists_every_rule(capsys) -> None:
    assert main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) >= 30 and lines[0].startswith("TFM101  estimator")


def test_rules_as_json(capsys) -> None:
    assert main(["rules", "--format", "json"]) == 0
    rules = json.loads(capsys.readouterr().out)
    assert {"code": "TFM301", "name": "placeholder"}.items() <= rules[[rule["code"] for rule in rules].index("TFM301")].items()


@pytest.mark.parametrize("name", ["TFM301", "tfm301", "placeholder"])
def test_explain_prints_the_rule_doc(name: str, capsys) -> None:
    assert main(["explain", name]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# TFM301 placeholder")
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## References"):
        assert section in out


def test_explain_unknown_rule_is_a_usage_error(capsys) -> None:
    assert main(["explain", "TFM999"]) == 2
    assert "unknown rule" in capsys.readouterr().err


def test_scaffold_command_writes_skeletons(write, tmp_path: Path, capsys) -> None:
    write("src/hooks.py", "import tensorflow as tf\nclass StepHook(tf.train.SessionRunHook):\n    def after_run(self, run_context, run_values):\n        pass\n")
    assert main(["scaffold", str(tmp_path / "src"), "--output-dir", str(tmp_path / "cb")]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == str(tmp_path / "cb" / "step_callback.py")
    assert "1 SessionRunHook subclass(es) found" in captured.err


def test_report_start_up_imports_no_dataclasses_inspect_or_pkgutil(write, tmp_path: Path) -> None:
    """Start-up is part of every run (a pre-commit hook on a few files is mostly start-up): these three
    cost about 10 ms before any file is read (`migrate.report.model`, `migrate.core.plugins`)."""
    write("code/train.py", "import tensorflow as tf\ntf.Session()\n")
    check = (
        "import sys\nfrom migrate.cli import main\ncode = main(sys.argv[1:])\n"
        "loaded = sorted({'dataclasses', 'inspect', 'pkgutil'} & set(sys.modules))\n"
        "raise SystemExit(f'imported {loaded}' if loaded else code)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", check, "report", str(tmp_path / "code"), "--format", "json", "--jobs", "1", "--exit-zero"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert completed.returncode == 0, completed.stderr
    assert [finding["code"] for finding in json.loads(completed.stdout)["findings"]] == ["TFM303"]


def test_scaffold_onto_a_file_is_a_usage_error(write, tmp_path: Path, capsys) -> None:
    write("src/hooks.py", "import tensorflow as tf\nclass StepHook(tf.train.SessionRunHook):\n    pass\n")
    write("taken.py", "x = 1\n")
    assert main(["scaffold", str(tmp_path / "src"), "-o", str(tmp_path / "taken.py")]) == 2
    assert "is a file, not a directory" in capsys.readouterr().err
    assert (tmp_path / "taken.py").read_text() == "x = 1\n"
