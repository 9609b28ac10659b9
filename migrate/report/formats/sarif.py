"""SARIF 2.1.0, for code-scanning UIs.

Notebook findings carry their cell in the message and in `properties.cell`
(SARIF has no notion of cells); skipped files are tool notifications.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import migrate
from migrate.report.formats import register_format
from migrate.report.formats.common import indented_json

if TYPE_CHECKING:
    from migrate.report.scanner import Report

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
VERSION = "2.1.0"


def artifact_uri(path: str) -> str:
    return Path(path).as_uri() if os.path.isabs(path) else Path(path).as_posix()


def as_sarif(report: Report) -> dict:
    codes = list(report.rules)
    rules = [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.body},
            "help": {"text": rule.body, "markdown": rule.body},
            "properties": {"fix": rule.fix, "effort": rule.effort, "modernEquivalent": rule.modern_equivalent},
        }
        for rule in report.rules.values()
    ]
    results = []
    for finding in report.findings:
        message = finding.message if finding.cell is None else f"(cell {finding.cell}) {finding.message}"
        result = {
            "ruleId": finding.code,
            "ruleIndex": codes.index(finding.code),
            "level": "warning",
            "message": {"text": message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": artifact_uri(finding.path)},
                        "region": {"startLine": max(finding.line, 1), "startColumn": finding.column + 1},
                    }
                }
            ],
        }
        if finding.cell is not None:
            result["properties"] = {"cell": finding.cell}
        results.append(result)
    notifications = [
        {
            "level": "note",
            "message": {"text": f"skipped: {result.skipped}"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": artifact_uri(result.path)}}}],
        }
        for result in report.skipped
    ]
    return {
        "$schema": SCHEMA,
        "version": VERSION,
        "runs": [
            {
                "tool": {"driver": {"name": "migrate-report", "version": migrate.__version__, "rules": rules}},
                "results": results,
                "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications}],
            }
        ],
    }


@register_format("sarif")
def render(report: Report) -> str:
    return indented_json(as_sarif(report), end="\n")
