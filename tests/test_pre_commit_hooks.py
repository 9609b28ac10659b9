"""`.pre-commit-hooks.yaml`: every hook runs a real `migrate` command the way pre-commit calls it."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import yaml

from migrate.cli import main

ROOT = Path(__file__).resolve().parent.parent
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())


def test_hooks_have_the_fields_pre_commit_requires() -> None:
    assert [hook["id"] for hook in HOOKS] == ["migrate-report", "migrate-fix"]
    for hook in HOOKS:
        assert {"id", "name", "entry", "language"} <= set(hook) and hook["language"] == "python"
        assert set(hook["types_or"]) == {"python", "jupyter"}


@pytest.mark.parametrize("hook", HOOKS, ids=lambda hook: hook["id"])
def test_hook_entry_runs_on_file_names(hook: dict, tmp_path: Path, capsys) -> None:
    program, *arguments = shlex.split(hook["entry"])
    assert program == "migrate"
    clean = tmp_path / "clean.py"
    clean.write_text("import os\n")
    assert main([*arguments, str(clean)]) == 0
    tf1 = tmp_path / "tf1.py"
    tf1.write_text("import tensorflow as tf\ntf.logging.info('x')\n")
    expected = 1 if hook["id"] == "migrate-report" else 0
    assert main([*arguments, str(tf1), str(clean)]) == expected


def test_report_hook_with_a_baseline_passes_on_old_findings(tmp_path: Path, capsys) -> None:
    _, *arguments = shlex.split(HOOKS[0]["entry"])
    tf1 = tmp_path / "tf1.py"
    tf1.write_text("import tensorflow as tf\nsess = tf.Session()\n")
    baseline = tmp_path / ".migrate-baseline.json"
    assert main([*arguments, "--write-baseline", str(baseline), str(tf1)]) == 0
    assert main([*arguments, "--baseline", str(baseline), str(tf1)]) == 0
    tf1.write_text(tf1.read_text() + "other = tf.Session()\n")
    assert main([*arguments, "--baseline", str(baseline), str(tf1)]) == 1
