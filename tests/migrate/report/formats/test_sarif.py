"""SARIF 2.1.0: the structure code-scanning UIs require (no schema package is installed, so checked by hand)."""
from __future__ import annotations

import json

from migrate.report.formats.sarif import render


def test_sarif_required_structure(sample_report) -> None:
    log = json.loads(render(sample_report))
    assert log["$schema"].endswith("sarif-2.1.0.json") and log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "migrate-report"
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert len(rule_ids) == len(set(rule_ids)) >= 30
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and "## What it does" in rule["fullDescription"]["text"]
    assert len(run["results"]) == 4
    for result in run["results"]:
        assert result["ruleId"] in rule_ids and driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert isinstance(result["message"]["text"], str) and result["message"]["text"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uri"]
        assert isinstance(physical["region"]["startLine"], int) and physical["region"]["startLine"] >= 1
        assert physical["region"]["startColumn"] >= 1
    notebook = next(result for result in run["results"] if result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(".ipynb"))
    assert notebook["properties"] == {"cell": 1} and notebook["message"]["text"].startswith("(cell 1)")
    (notification,) = run["invocations"][0]["toolExecutionNotifications"]
    assert notification["message"]["text"].startswith("skipped: Python 2 source")


def test_absolute_paths_become_file_uris(write, run_scan) -> None:
    report = run_scan(write("a.py", "import tensorflow as tf\ntf.Session()\n"))
    uri = json.loads(render(report))["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.startswith("file:///") and uri.endswith("/a.py")
