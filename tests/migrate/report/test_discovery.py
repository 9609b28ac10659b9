"""File discovery like Ruff's: .gitignore, default excludes, virtualenvs, --exclude/--extend-exclude, explicit
paths always scanned, [tool.migrate], stdin, PATH defaulting to `.`, --quiet and --statistics."""
from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.cli import main

TF1 = "import tensorflow as tf\ntf.logging.info('step')\nx = tf.placeholder(tf.float32)\n"
FIXED = "absl"


@pytest.fixture
def repo(write, tmp_path: Path, monkeypatch) -> Path:
    """A git repository with code to fix, a git-ignored directory, a virtualenv and the usual build trees."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write(".gitignore", "generated/\n*.gen.py\n")
    write("src/train.py", TF1)
    write("src/model.gen.py", TF1)
    write("generated/out.py", TF1)
    write("venv/lib/python3.11/site-packages/keras/api.py", TF1)
    write("my-env/pyvenv.cfg", "home = /usr/bin\n")
    write("my-env/lib/python3.11/site-packages/tensorflow/x.py", TF1)
    write("build/lib/train.py", TF1)
    write("dist/train.py", TF1)
    write("pkg/.tox/py311/mod.py", TF1)
    monkeypatch.chdir(tmp_path)
    return tmp_path


UNTOUCHED = ["src/model.gen.py", "generated/out.py", "venv/lib/python3.11/site-packages/keras/api.py",
             "my-env/lib/python3.11/site-packages/tensorflow/x.py", "build/lib/train.py", "dist/train.py",
             "pkg/.tox/py311/mod.py"]


def _report_paths(argv: list[str], capsys) -> list[str]:
    main(["report", "--format", "json", "--jobs", "1", *argv])
    return sorted({finding["path"] for finding in json.loads(capsys.readouterr().out)["findings"]})


def test_fix_touches_neither_the_gitignored_dir_nor_a_venv(repo: Path, capsys) -> None:
    assert main(["fix", "--jobs", "1"]) == 0  # PATH defaults to `.`
    assert FIXED in (repo / "src/train.py").read_text()
    assert {path: (repo / path).read_text() for path in UNTOUCHED} == dict.fromkeys(UNTOUCHED, TF1)
    assert "rewrote 1 of 1 file(s)" in capsys.readouterr().err


def test_report_walks_the_same_files_and_explicit_paths_are_always_scanned(repo: Path, capsys) -> None:
    assert _report_paths([], capsys) == ["src/train.py"]
    assert _report_paths(["generated/out.py", "venv/lib/python3.11/site-packages/keras/api.py"], capsys) == [
        "generated/out.py", "venv/lib/python3.11/site-packages/keras/api.py"]
    assert _report_paths(["build"], capsys) == ["build/lib/train.py"], "a directory named explicitly is walked"


def test_exclude_replaces_and_extend_exclude_adds(repo: Path, capsys) -> None:
    assert _report_paths(["--exclude", "src"], capsys) == ["build/lib/train.py", "dist/train.py"], \
        "site-packages and virtualenvs stay excluded"
    assert _report_paths(["--extend-exclude", "src/train.py"], capsys) == []
    assert _report_paths(["--no-respect-gitignore"], capsys) == ["generated/out.py", "src/model.gen.py", "src/train.py"]


def test_nested_gitignore_decides_below_its_directory(repo: Path, write, capsys) -> None:
    write("generated/.gitignore", "!keep.py\n")  # cannot re-include below an ignored directory, as git
    write("src/.gitignore", "*.py\n!train.py\n")
    write("src/other.py", TF1)
    assert _report_paths(["."], capsys) == ["src/train.py"]


def test_a_subdirectory_scan_honours_the_repository_gitignore(repo: Path, write, capsys, monkeypatch) -> None:
    monkeypatch.chdir(repo / "src")
    assert _report_paths(["."], capsys) == ["train.py"]


def test_tool_migrate_in_pyproject(repo: Path, write, capsys) -> None:
    write("tests/test_x.py", TF1)
    write("pyproject.toml", """\
        [project]
        name = "x"

        [tool.migrate]
        select = ["TFM3", "TFM5"]
        per-file-ignores = {"tests/*" = ["TFM301"]}
        extend-exclude = ["dist"]
        exclude = ["build"]
        jobs = 1
        """)
    main(["report", "--format", "json"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert sorted({(finding["path"], finding["code"][:4]) for finding in findings}) == [
        ("src/train.py", "TFM3"), ("src/train.py", "TFM5"), ("tests/test_x.py", "TFM5")]
    main(["report", "--format", "json", "--select", "TFM301"])  # a flag wins over the file
    assert {finding["code"] for finding in json.loads(capsys.readouterr().out)["findings"]} == {"TFM301"}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        pytest.param('selct = ["TFM3"]', "unknown [tool.migrate] key(s) selct", id="unknown key"),
        pytest.param("jobs = -1", "jobs must be 0 (one per CPU) or more, got -1", id="bad jobs"),
        pytest.param('select = "TFM3"', "select must be a list of strings", id="bad select"),
        pytest.param("select = [", "cannot read it as TOML", id="not TOML"),
    ],
)
def test_a_bad_tool_migrate_is_a_usage_error(repo: Path, write, capsys, table: str, message: str) -> None:
    write("pyproject.toml", f"[tool.migrate]\n{table}\n")
    assert main(["report"]) == 2
    err = capsys.readouterr().err
    assert message in err and "pyproject.toml" in err


def test_report_reads_stdin(repo: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TF1.encode())))
    assert main(["report", "-", "--stdin-filename", "src/piped.py", "--format", "json"]) == 1
    assert {finding["path"] for finding in json.loads(capsys.readouterr().out)["findings"]} == {"src/piped.py"}


def test_fix_reads_stdin_and_prints_the_fixed_text(repo: Path, capsysbinary, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TF1.encode())))
    assert main(["fix", "-"]) == 0
    out = capsysbinary.readouterr().out.decode()
    assert "from absl import logging" in out and "logging.info('step')" in out
    assert (repo / "src/train.py").read_text() == TF1


def test_quiet_and_statistics(repo: Path, capsys) -> None:
    assert main(["report", "--statistics", "--quiet", "src"]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert [line.split()[1] for line in lines] == sorted((line.split()[1] for line in lines), key=lambda code: (
        -int(next(other.split()[0] for other in lines if other.split()[1] == code)), code))
    assert {line.split()[1] for line in lines} >= {"TFM301"} and all(line.split()[0].isdigit() for line in lines)
    assert captured.err == ""
    assert main(["report", "--statistics", "--format", "json", "src"]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert [(row["code"], row["count"]) for row in rows] == [(line.split()[1], int(line.split()[0])) for line in lines]
    assert main(["fix", "--quiet", "src"]) == 0
    err = capsys.readouterr().err
    assert err.splitlines() == ["fixed src/train.py (1 rewrite)"]
    (Path("src") / "train.py").write_text(TF1)
    assert main(["fix", "--statistics", "src"]) == 0
    assert capsys.readouterr().err.splitlines()[-2:] == ["     1  files with changes", "     1  rewrites"]


def test_a_gitignored_directory_named_explicitly_is_walked(repo: Path, write, capsys) -> None:
    write("generated/.gitignore", "skip.py\n")
    write("generated/skip.py", TF1)
    assert _report_paths(["generated"], capsys) == ["generated/out.py"], "its own .gitignore still applies"
    assert _report_paths(["--extend-exclude", "src/", "src"], capsys) == ["src/train.py"]


def test_tool_migrate_baseline_is_relative_to_the_pyproject(repo: Path, write, capsys, monkeypatch) -> None:
    write("pyproject.toml", '[tool.migrate]\nbaseline = "migrate-baseline.json"\n')
    assert main(["report", "src", "--write-baseline", "migrate-baseline.json"]) == 0
    monkeypatch.chdir(repo / "src")
    assert main(["report", "."]) == 0, "every finding is in the baseline the pyproject names"
    assert "in the baseline" in capsys.readouterr().err


def test_a_walk_no_gitignore_pattern_can_touch_does_not_import_pathspec(repo: Path, write) -> None:
    """pathspec costs ~15 ms to import (a tenth of a pre-commit run): only a name a pattern could match needs it."""
    write("lib/a.py", TF1)
    check = ("import sys\nfrom migrate.cli import main\nmain(sys.argv[1:])\n"
             "raise SystemExit('pathspec imported' if 'pathspec' in sys.modules else 0)\n")
    completed = subprocess.run([sys.executable, "-c", check, "report", "lib", "--exit-zero", "-q"],
                               capture_output=True, text=True, timeout=120, cwd=repo)
    assert completed.returncode == 0, completed.stderr
