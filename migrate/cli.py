"""The `migrate` command line: one entry point, subcommands from a registry.

Each module in `migrate/commands/` defines one `COMMAND = Command(...)`; the
registry is filled by importing every module of that package, so adding a
subcommand is adding a file. Subcommands that train import TensorFlow inside
their `run`, never at import time, so `migrate report` works without it.
Exit codes are those of `migrate.core.cli`.
"""
from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Sequence

import migrate
import migrate.commands
from migrate.core.cli import Command, Program, run_commands
from migrate.core.plugins import module_names

PROGRAM = Program(
    prog="migrate",
    description="Migrate TF1 Estimator/SessionRunHook code to TF2 tf.data + Keras callbacks.",
    version=migrate.__version__,
)


def discover_commands() -> dict[str, Command]:
    """Import every module of `migrate.commands` and collect its `COMMAND`."""
    commands: dict[str, Command] = {}
    for name in module_names(migrate.commands.__path__):
        module = importlib.import_module(f"migrate.commands.{name}")
        command = getattr(module, "COMMAND", None)
        if isinstance(command, Command):
            commands[command.name] = command
    return dict(sorted(commands.items()))


def commands_for(argv: Sequence[str] | None) -> Iterable[Command]:
    """Only the command `argv` names first, when its module exists; else every command.

    Start-up time is part of every run (`migrate report` in a pre-commit hook runs
    on a handful of files): naming a command imports its module alone, not
    `parity` or `fix` too. `migrate --help`, no command or a misspelt one build the
    full parser, so the usage lists every command.
    """
    args = sys.argv[1:] if argv is None else argv
    if args and not args[0].startswith("-"):
        module = args[0].replace("-", "_")
        if module in module_names(migrate.commands.__path__):
            command = getattr(importlib.import_module(f"migrate.commands.{module}"), "COMMAND", None)
            if isinstance(command, Command) and command.name == args[0]:
                return [command]
    return discover_commands().values()


def main(argv: Sequence[str] | None = None) -> int:
    """Run `migrate` with `argv` (default: the command line) and return its exit code."""
    return run_commands(PROGRAM, commands_for(argv), argv)


def run_program() -> int:
    """The `migrate` program itself (console script, `python -m migrate`): `main` on the command line,
    ending the process as soon as a `quick_exit` command is done (`migrate.core.cli.end_process`)."""
    return run_commands(PROGRAM, commands_for(None), None, standalone=True)
