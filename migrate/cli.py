"""The `migrate` command line: one entry point, subcommands from a registry.

Each module in `migrate/commands/` defines one `COMMAND = Command(...)`; the
registry is filled by importing every module of that package, so adding a
subcommand is adding a file. Subcommands that train import TensorFlow inside
their `run`, never at import time, so `migrate report` works without it.

Exit codes: 0 success, 1 the command ran and found a problem (findings, parity
broken, training failed), 2 usage error (bad flags, unreadable input).
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from dataclasses import dataclass
from typing import Callable, Sequence

import migrate
import migrate.commands


@dataclass(frozen=True)
class Command:
    """A subcommand: its name, one-line help, argument setup and runner."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    description: str = ""


class UsageError(Exception):
    """Raised by a command for bad input the user can fix; exits with code 2."""


def discover_commands() -> dict[str, Command]:
    """Import every module of `migrate.commands` and collect its `COMMAND`."""
    commands: dict[str, Command] = {}
    for module_info in pkgutil.iter_modules(migrate.commands.__path__):
        module = importlib.import_module(f"migrate.commands.{module_info.name}")
        command = getattr(module, "COMMAND", None)
        if isinstance(command, Command):
            commands[command.name] = command
    return dict(sorted(commands.items()))


def build_parser(commands: dict[str, Command]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="migrate",
        description="Migrate TF1 Estimator/SessionRunHook code to TF2 tf.data + Keras callbacks.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {migrate.__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in commands.values():
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.description or command.help,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.configure(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    commands = discover_commands()
    parser = build_parser(commands)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_request:
        return int(exit_request.code or 0)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return commands[args.command].run(args)
    except UsageError as error:
        print(f"migrate {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"migrate {args.command}: interrupted", file=sys.stderr)
        return 130
