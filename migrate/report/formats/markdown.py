"""Markdown for a migration plan document or a pull-request comment."""
from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING

from migrate.report.formats import register_format
from migrate.report.formats.common import EFFORT_MEANING, group_skipped

if TYPE_CHECKING:
    from migrate.report.scanner import Report


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


@register_format("markdown")
def render(report: Report) -> str:
    out = [
        "# TF1 → TF2 migration report",
        "",
        f"{len(report.files)} file(s) scanned, {len(report.skipped)} skipped, "
        f"**{len(report.findings)} finding(s)**, {len(report.hooks)} SessionRunHook subclass(es).",
        "",
    ]
    effort = report.effort()
    if report.findings:
        out += ["## Effort", "", "| effort | findings | what it means | rules |", "|---|---:|---|---|"]
        for level, codes in effort.items():
            if codes:
                rules = ", ".join(f"`{code}` {report.rules[code].name}" for code in codes)
                out.append(f"| {level} | {sum(codes.values())} | {EFFORT_MEANING[level]} | {rules} |")
        out += ["", "## Findings per rule", "", "| code | rule | fix | findings | modern equivalent |", "|---|---|---|---:|---|"]
        for code, count in report.counts_by_rule().items():
            rule = report.rules[code]
            out.append(f"| `{code}` | {rule.name} | {rule.fix} | {count} | {rule.modern_equivalent or '—'} |")
        out += ["", "## Findings", ""]
        for path, findings in groupby(report.findings, key=lambda finding: finding.path):
            out += [f"### `{path}`", "", "| where | code | message |", "|---|---|---|"]
            out += [f"| {finding.where} | `{finding.code}` | {_cell(finding.message)} |" for finding in findings]
            out.append("")
    if report.hooks:
        out += ["## SessionRunHook subclasses", "", "| class | where | derives from | phase | methods → callback |", "|---|---|---|---|---|"]
        for hook in report.hooks:
            methods = "<br>".join(
                f"`{method.name}` → `{hook.keras_method(method)}`" + ("" if method.defined_in == hook.qualname else f" (from `{method.defined_in}`)")
                for method in hook.methods
            ) or "—"
            out.append(f"| `{hook.full_name}` | {hook.path}:{hook.line} | {' ← '.join(f'`{name}`' for name in hook.chain)} | {hook.phase_text} | {methods} |")
        out.append("")
    if report.skipped:
        out += ["## Skipped files", "", "| reason | files |", "|---|---|"]
        for reason, paths in group_skipped(report.skipped).items():
            out.append(f"| {_cell(reason)} | {_cell(', '.join(paths))} |")
        out.append("")
    return "\n".join(out) + "\n"
