"""`migrate explain CODE`: print one rule's documentation (what, why, example, fix)."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from migrate.core.cli import Command, UsageError

if TYPE_CHECKING:
    from migrate.report.registry import Rule


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rule", metavar="CODE", help="rule code (TFM301) or name (placeholder)")


def run(args: argparse.Namespace) -> int:
    from migrate.report.registry import rule_for

    rule = rule_for(args.rule)
    if rule is None:
        raise UsageError(f"unknown rule {args.rule!r}; `migrate rules` lists them")
    print(rule_document(rule), end="")
    return 0


def rule_document(rule: Rule) -> str:
    """One rule's documentation in Markdown: what `migrate explain` prints and docs/reference/rules/CODE.md holds."""
    will, will_not = rule.fix_scope
    equivalent = f" Modern equivalent: {rule.modern_equivalent}." if rule.modern_equivalent else ""
    return (
        f"# {rule.code} {rule.name}\n\n{rule.summary}\n\n"
        f"Fix: {rule.fix}. Effort: {rule.effort}.{equivalent}\n\n"
        f"`migrate fix` does: {will}.\n\n`migrate fix` does not: {will_not}.\n\n"
        + rule.body
    )


COMMAND = Command(
    name="explain",
    help="print the documentation of one `migrate report` rule",
    configure=configure,
    run=run,
    quick_exit=True,
)
