"""SARIF 2.1.0, for code-scanning UIs (GitHub code scanning and others).

- Paths under the working directory are relative URIs, percent-encoded (a
  space, `#` or non-ASCII character cannot cut or corrupt them), against the
  base `%SRCROOT%` that `originalUriBaseIds` defines as the working directory;
  other paths are `file://` URIs.
- Each result has `partialFingerprints["migrateFindingHash/v1"]`: a hash of
  its rule, file and whitespace-normalised source line, plus its occurrence
  count (`hash:n`, the form of GitHub's `primaryLocationLineHash`), so an alert
  survives lines moving around it, as a baseline entry does.
- A notebook's results name the cell (SARIF has no cells): a logical location
  `cell N`, the message and `properties` (`cell`, `lineInCell`); their region
  is the line of the `.ipynb` file that holds that source line
  (`notebook_lines`), never the cell's own line number read as a file line
  (no region when the file cannot be read that way).
- Skipped files are tool notifications.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import migrate
from migrate.report.formats import register_format
from migrate.report.formats.common import indented_json
from migrate.report.formats.notebook_lines import json_line

if TYPE_CHECKING:
    from migrate.report.scanner import Report

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
VERSION = "2.1.0"


SOURCE_ROOT = "%SRCROOT%"
FINGERPRINT = "migrateFindingHash/v1"


def artifact_location(path: str, root: str | None = None) -> dict:
    """`{"uri": ..., "uriBaseId": "%SRCROOT%"}` for a path under `root` (default: the cwd), else a file URI."""
    root = os.path.abspath(root or os.getcwd())
    absolute = os.path.abspath(path)
    if absolute == root or absolute.startswith(root.rstrip(os.sep) + os.sep):
        relative = Path(os.path.relpath(absolute, root)).as_posix()
        return {"uri": quote(relative, safe="/"), "uriBaseId": SOURCE_ROOT}
    return {"uri": Path(absolute).as_uri()}


def _root_uri(root: str | None = None) -> str:
    return Path(os.path.abspath(root or os.getcwd())).as_uri().rstrip("/") + "/"


def _fingerprints(report: Report) -> list[str]:
    import hashlib  # here, not at the top: every report run loads every format, and hashlib's OpenSSL start costs 2-3 ms
    from collections import Counter

    from migrate.report.baseline import finding_keys

    seen: Counter = Counter()
    hashes = []
    for code, path, line_hash in finding_keys(report.findings, os.getcwd()):
        digest = hashlib.sha256(f"{code}\0{path}\0{line_hash}".encode()).hexdigest()[:32]
        seen[digest] += 1
        hashes.append(f"{digest}:{seen[digest]}")
    return hashes


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
    for finding, fingerprint in zip(report.findings, _fingerprints(report)):
        if finding.cell is None:
            message = finding.message
            location: dict[str, Any] = {"physicalLocation": {
                "artifactLocation": artifact_location(finding.path),
                "region": {"startLine": max(finding.line, 1), "startColumn": finding.column + 1},
            }}
        else:
            message = f"(cell {finding.cell}, line {finding.line}) {finding.message}"
            physical: dict[str, Any] = {"artifactLocation": artifact_location(finding.path)}
            line_in_file = json_line(finding.path, finding.cell, finding.line)
            if line_in_file is not None:
                physical["region"] = {"startLine": line_in_file}
            location = {
                "physicalLocation": physical,
                "logicalLocations": [{"name": f"cell {finding.cell}",
                                      "fullyQualifiedName": f"{finding.path}:cell {finding.cell}:{finding.line}"}],
            }
        result = {
            "ruleId": finding.code,
            "ruleIndex": codes.index(finding.code),
            "level": "warning",
            "message": {"text": message},
            "locations": [location],
            "partialFingerprints": {FINGERPRINT: fingerprint},
        }
        if finding.cell is not None:
            result["properties"] = {"cell": finding.cell, "lineInCell": finding.line}
        results.append(result)
    notifications = [
        {
            "level": "note",
            "message": {"text": f"skipped: {result.skipped}"},
            "locations": [{"physicalLocation": {"artifactLocation": artifact_location(result.path)}}],
        }
        for result in report.skipped
    ]
    return {
        "$schema": SCHEMA,
        "version": VERSION,
        "runs": [
            {
                "tool": {"driver": {"name": "migrate-report", "version": migrate.__version__, "rules": rules}},
                "originalUriBaseIds": {SOURCE_ROOT: {"uri": _root_uri()}},
                "results": results,
                "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications}],
            }
        ],
    }


@register_format("sarif")
def render(report: Report) -> str:
    return indented_json(as_sarif(report), end="\n")
