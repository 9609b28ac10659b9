"""Small helpers shared by the renderers."""
from __future__ import annotations

from migrate.report.model import Finding
from migrate.report.registry import Rule

EFFORT_MEANING = {
    "redesign": "the training loop changes shape (Estimator, sessions, hooks → Keras fit + callbacks)",
    "rewrite": "local code changes with a known TF2 counterpart",
    "rename": "mechanical replacement, same behaviour",
}


def location(finding: Finding) -> str:
    if finding.cell is not None:
        return f"{finding.path}:cell {finding.cell}:{finding.line}:{finding.column + 1}"
    return f"{finding.path}:{finding.line}:{finding.column + 1}"


def group_skipped(skipped) -> dict[str, list[str]]:
    """reason → paths, so a hundred empty `__init__.py` files read as one line."""
    groups: dict[str, list[str]] = {}
    for result in skipped:
        groups.setdefault(result.skipped or "", []).append(result.path)
    return groups


def rule_label(rule: Rule) -> str:
    return f"{rule.code} {rule.name}"
