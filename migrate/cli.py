"""The `migrate` command line: one entry point, subcommands from a registry.

Each module in `migrate/commands/` defines one `COMMAND = Command(...)`; the
registry is filled by importing every module of that package, so adding a
subcommand is adding a file. Subcommands that train import TensorFlow inside
their `run`, never at import time, so `migrate report` works without it.
Exit codes are those of `migrate.core.cli`.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence

import migrate
import migrate.commands
from migrate.core.cli import Command, Program, run_commands

PROGRAM = Program(
    prog="migrate",
    description="Migrate TF1 Estimator/SessionRunHook code to TF2 tf.data + Keras callbacks.",
    version=migrate.__version__,
)


def discover_commands() -> dict[str, Command]:
    """Import every module of `migrate.commands` and collect its `COMMAND`."""
    commands: dict[str, Command] = {}
    for module_info in pkgutil.iter_modules(migrate.commands.__path__):
        module = importlib.import_module(f"migrate.commands.{module_info.name}")
        command = getattr(module, "COMMAND", None)
        if isinstance(command, Command):
            commands[command.name] = command
    return dict(sorted(commands.items()))


def main(argv: Sequence[str] | None = None) -> int:
    return run_commands(PROGRAM, discover_commands().values(), argv)
