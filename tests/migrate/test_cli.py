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


@pytest.mark.parametrize("argv", [["report"], ["report", "--jobs", "x", "."]])
def test_a_lone_command_keeps_its_usage_errors(argv, capsys):
    assert main(argv) == 2
    assert "usage: migrate report" in capsys.readouterr().err
