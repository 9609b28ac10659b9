"""`migrate explain CODE`: print one rule's documentation (what, why, example, fix)."""
from __future__ import annotations

import argparse

from migrate.core.cli import Command, UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rule", metavar="CODE", help="rule code (TFM301) or name (placeholder)")


def run(args: argparse.Namespace) -> int:
    from migrate.report.registry import rule_for

    rule = rule_for(args.rule)
    if rule is None:
        raise UsageError(f"unknown rule {args.rule!r}; `migrate rules` lists them")
    print(f"# {rule.code} {rule.name}\n")
    print(rule.summary + "\n")
    print(f"Fix: {rule.fix}. Effort: {rule.effort}." + (f" Modern equivalent: {rule.modern_equivalent}." if rule.modern_equivalent else "") + "\n")
    will, will_not = rule.fix_scope
    print(f"`migrate fix` does: {will}.")
    print(f"`migrate fix` does not: {will_not}.\n")
    print(rule.body, end="")
    return 0


COMMAND = Command(
    name="explain",
    help="print the documentation of one `migrate report` rule",
    configure=configure,
    run=run,
    quick_exit=True,
)
