"""Machine-readable JSON: summary, findings, hooks, skipped files."""
from __future__ import annotations

from typing import TYPE_CHECKING

import migrate
from migrate.report.formats import register_format
from migrate.report.formats.common import Encoded, indented_json, str_encoder, string_encoder

if TYPE_CHECKING:
    from migrate.report.scanner import Report


def as_dict(report: Report, findings: list | Encoded | None = None) -> dict:
    """The JSON report as a value; `findings` stands in for the list of finding dicts when given."""
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
        "findings": findings if findings is not None else [
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
    return indented_json(as_dict(report, findings=encoded_findings(report)), end="\n")


def encoded_findings(report: Report, indent: str = "  ") -> Encoded:
    """The "findings" list of `as_dict`, encoded as `indented_json` would at `indent`, without making its dicts.

    Findings are most of a report (676 of `tensorflow_estimator`'s 380 KB): each
    is written from a template, its rule's fields and its path encoded once, in
    a third of the time building and encoding the dicts took (2 ms of a 180 ms run).
    `tests/migrate/report/formats/test_common.py` holds it to `json.dumps` of `as_dict`.
    """
    if not report.findings:
        return Encoded(["[]"])
    inner, field = indent + "  ", indent + "    "
    json_string, encode_str = string_encoder(), str_encoder()
    rules = {
        code: f",\n{field}".join(
            f'"{key}": {json_string(value)}'
            for key, value in (("code", code), ("name", rule.name), ("fix", rule.fix), ("modern_equivalent", rule.modern_equivalent))
        )
        for code, rule in report.rules.items()
    }
    paths: dict[str, str] = {}
    items = [f"[\n{inner}"]
    separator = f",\n{inner}"
    for finding in report.findings:
        path = paths.get(finding.path)
        if path is None:
            path = paths[finding.path] = encode_str(finding.path)
        cell = "null" if finding.cell is None else finding.cell
        items.append(
            f'{{\n{field}"path": {path},\n{field}"cell": {cell},\n{field}"line": {finding.line},\n'
            f'{field}"column": {finding.column + 1},\n{field}{rules[finding.code]},\n'
            f'{field}"message": {encode_str(finding.message)}\n{inner}}}'
        )
        items.append(separator)
    items[-1] = f"\n{indent}]"
    return Encoded(items)
