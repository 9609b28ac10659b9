"""Machine-readable JSON: summary, findings, hooks, skipped files."""
from __future__ import annotations

from typing import TYPE_CHECKING

import migrate
from migrate.report.formats import register_format
from migrate.report.formats.common import indented_json

if TYPE_CHECKING:
    from migrate.report.scanner import Report


def as_dict(report: Report) -> dict:
    rule_fields = {
        code: {"name": rule.name, "fix": rule.fix, "modern_equivalent": rule.modern_equivalent}
        for code, rule in report.rules.items()
    }
    """What each finding says of its rule, looked up once per rule rather than three times per finding."""
    return {
        "tool": {"name": "migrate report", "version": migrate.__version__},
        "paths": report.paths,
        "summary": {
            "files_scanned": len(report.files),
            "files_skipped": len(report.skipped),
            "findings": len(report.findings),
            "suppressed": report.suppressed,
            "hook_subclasses": len(report.hooks),
            "by_rule": report.counts_by_rule(),
            "by_file": report.counts_by_file(),
            "effort": report.effort(),
            "elapsed_seconds": round(report.elapsed, 3),
        },
        "findings": [
            {
                "path": finding.path,
                "cell": finding.cell,
                "line": finding.line,
                "column": finding.column + 1,
                "code": finding.code,
                **rule_fields[finding.code],
                "message": finding.message,
            }
            for finding in report.findings
        ],
        "hooks": [
            {
                "path": hook.path,
                "cell": hook.cell,
                "line": hook.line,
                "module": hook.module,
                "class": hook.qualname,
                "tensorflow_base": hook.tensorflow_base,
                "chain": hook.chain,
                "phases": list(hook.phases),
                "methods": [
                    {
                        "name": method.name,
                        "defined_in": method.defined_in,
                        "callback": hook.keras_method(method).partition(" / ")[0],
                        "phase_callbacks": hook.keras_method(method).split(" / "),
                        "callbacks": list(method.callbacks),
                    }
                    for method in hook.methods
                ],
                "equivalent": None if hook.equivalent is None else {"callback": hook.equivalent.callback, "path": hook.equivalent.path},
            }
            for hook in report.hooks
        ],
        "skipped": [{"path": result.path, "reason": result.skipped} for result in report.skipped],
        "notes": report.notes,
    }


@register_format("json")
def render(report: Report) -> str:
    return indented_json(as_dict(report), end="\n")
