"""The `migrate` entry point: a command named on the command line is imported alone."""
from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from migrate.cli import discover_commands, main


def _imported_commands(argv: list[str]) -> set[str]:
    code = (
        "import sys; from migrate.cli import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        "print(sorted(name for name in sys.modules if name.startswith('migrate.commands.')))"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(ast.literal_eval(completed.stdout.strip().splitlines()[-1]))


def test_naming_a_command_imports_only_its_module(tmp_path):
    (tmp_path / "a.py").write_text("import os\n")
    assert _imported_commands(["report", str(tmp_path), "--exit-zero"]) == {"migrate.commands.report"}
    assert _imported_commands(["fetch-mnist", "--help"]) == {"migrate.commands.fetch_mnist"}


def test_help_and_unknown_commands_list_every_command(capsys):
    every = {f"migrate.commands.{name.replace('-', '_')}" for name in discover_commands()}
    assert _imported_commands(["--help"]) == every
    assert main(["reprot", "x"]) == 2
    error = capsys.readouterr().err
    assert "invalid choice: 'reprot'" in error and all(name in error for name in discover_commands())


@pytest.mark.parametrize("argv", [["report", "--format", "xml"], ["report", "--jobs", "x", "."]])
def test_a_lone_command_keeps_its_usage_errors(argv, capsys):
    assert main(argv) == 2
    assert "usage: migrate report" in capsys.readouterr().err


@pytest.mark.parametrize("via", ["-m migrate", "console script"])
def test_the_program_hands_over_the_whole_report_and_its_exit_code(tmp_path, via):
    """`migrate report` ends its process without tearing the interpreter down (`Command.quick_exit`):
    what it wrote to stdout and to `--output` is complete, and the exit code is the report's."""
    import json
    from pathlib import Path

    (tmp_path / "train.py").write_text("import tensorflow as tf\nsess = tf.Session()\n")
    script = Path(sys.executable).with_name("migrate")
    if via == "console script" and not script.exists():
        pytest.skip(f"no console script next to {sys.executable} (package not installed)")
    program = [sys.executable, "-m", "migrate"] if via == "-m migrate" else [str(script)]
    written = tmp_path / "report.json"
    to_file = subprocess.run([*program, "report", str(tmp_path), "--format", "json", "--output", str(written)],
                             capture_output=True, text=True, timeout=120)
    to_stdout = subprocess.run([*program, "report", str(tmp_path), "--format", "json"], capture_output=True, text=True,
                               timeout=120)
    assert (to_file.returncode, to_stdout.returncode) == (1, 1), to_file.stderr + to_stdout.stderr
    for text in (written.read_text(), to_stdout.stdout):
        assert [finding["code"] for finding in json.loads(text)["findings"]] == ["TFM303"]
