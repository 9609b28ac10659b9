"""`migrate rules`: the rules of `migrate report`, one line each."""
from __future__ import annotations

import argparse
import json

from migrate.core.cli import Command


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text")


def run(args: argparse.Namespace) -> int:
    from migrate.report.registry import load_rules

    rules = list(load_rules().values())
    if args.format == "json":
        print(json.dumps(
            [
                {"code": rule.code, "name": rule.name, "fix": rule.fix, "effort": rule.effort,
                 "modern_equivalent": rule.modern_equivalent, "summary": rule.summary,
                 "fix_does": rule.fix_scope[0], "fix_does_not": rule.fix_scope[1]}
                for rule in rules
            ],
            indent=2,
        ))
    elif args.format == "markdown":
        print("| code | name | fix | effort | modern equivalent | summary |\n|---|---|---|---|---|---|")
        for rule in rules:
            print(f"| `{rule.code}` | {rule.name} | {rule.fix} | {rule.effort} | {rule.modern_equivalent or '—'} | {rule.summary} |")
    else:
        width = max(len(rule.name) for rule in rules)
        for rule in rules:
            print(f"{rule.code}  {rule.name:<{width}}  {rule.fix:<9}  {rule.summary}")
    return 0


COMMAND = Command(
    name="rules",
    help="list the rules of `migrate report`",
    configure=configure,
    run=run,
    quick_exit=True,
)
