"""Plain text for a terminal: findings grouped by file, then counts and the effort overview."""
from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING

from migrate.report.formats import register_format
from migrate.report.formats.common import EFFORT_MEANING, group_skipped

if TYPE_CHECKING:
    from migrate.report.scanner import Report

COLLAPSE_AFTER = 5


@register_format("text")
def render(report: Report) -> str:
    lines: list[str] = []
    for path, findings in groupby(report.findings, key=lambda finding: finding.path):
        lines.append(path)
        for finding in findings:
            rule = report.rules[finding.code]
            lines.append(f"  {finding.where:<18} {finding.code} [{rule.fix}] {finding.message}")
        lines.append("")
    if report.hooks:
        lines.append(f"SessionRunHook subclasses ({len(report.hooks)}):")
        for hook in report.hooks:
            where = f"{hook.path}:cell {hook.cell}:{hook.line}" if hook.cell is not None else f"{hook.path}:{hook.line}"
            lines.append(f"  {hook.full_name} ({where}) ← {' ← '.join(hook.chain)}")
            lines.append(f"    phase: {hook.phase_text}")
            for method in hook.methods:
                origin = "" if method.defined_in == hook.qualname else f" (inherited from {method.defined_in})"
                lines.append(f"    {method.name}{origin} → {hook.keras_method(method)}")
            if hook.equivalent is not None and hook.equivalent.callback:
                lines.append(f"    start from {hook.equivalent.callback} in {hook.equivalent.path}")
        lines.append("")
    if report.skipped:
        lines.append(f"Skipped {len(report.skipped)} file(s):")
        for reason, paths in group_skipped(report.skipped).items():
            if len(paths) > COLLAPSE_AFTER:
                lines.append(f"  {reason}: {len(paths)} files ({', '.join(paths[:3])}, …)")
            else:
                lines.extend(f"  {path}: {reason}" for path in paths)
        lines.append("")
    for note in report.notes:
        lines.append(f"note: {note}")
    if report.notes:
        lines.append("")
    lines.extend(_summary(report))
    return "\n".join(lines) + "\n"


def _summary(report: Report) -> list[str]:
    lines = []
    by_rule = report.counts_by_rule()
    if by_rule:
        lines.append("Findings per rule:")
        for code, count in by_rule.items():
            rule = report.rules[code]
            lines.append(f"  {code} {rule.name:<28} {count:>6}  ({rule.fix})")
        lines.append("")
        lines.append("Findings per file:")
        for path, count in report.counts_by_file().items():
            lines.append(f"  {count:>6}  {path}")
        lines.append("")
        lines.append("Migration effort:")
        for effort, codes in report.effort().items():
            total = sum(codes.values())
            if total:
                names = ", ".join(report.rules[code].name for code in codes)
                lines.append(f"  {effort:<9} {total:>6} finding(s) — {EFFORT_MEANING[effort]}: {names}")
        lines.append("")
    suppressed = f", {report.suppressed} suppressed" if report.suppressed else ""
    lines.append(
        f"Scanned {len(report.files)} file(s), skipped {len(report.skipped)}, in {report.elapsed:.2f} s: "
        f"{len(report.findings)} finding(s){suppressed}, {len(report.hooks)} SessionRunHook subclass(es)."
    )
    return lines
