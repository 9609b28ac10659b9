"""SARIF 2.1.0: the structure code-scanning UIs require, checked by hand against the schema's rules for the fields
we write (neither a JSON-schema validator nor the schema file is available offline)."""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from migrate.cli import main
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
        if not physical["artifactLocation"]["uri"].endswith(".ipynb"):
            assert physical["region"]["startColumn"] >= 1
    notebook = next(result for result in run["results"] if result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(".ipynb"))
    assert notebook["properties"] == {"cell": 1, "lineInCell": 2}
    assert notebook["message"]["text"].startswith("(cell 1, line 2)")
    assert notebook["locations"][0]["logicalLocations"][0]["name"] == "cell 1"
    (notification,) = run["invocations"][0]["toolExecutionNotifications"]
    assert notification["message"]["text"].startswith("skipped: Python 2 source")


def test_absolute_paths_become_file_uris(write, run_scan) -> None:
    report = run_scan(write("a.py", "import tensorflow as tf\ntf.Session()\n"))
    uri = json.loads(render(report))["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.startswith("file:///") and uri.endswith("/a.py")


RFC3986_URI_REFERENCE = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$")
"""The characters a URI reference may hold (RFC 3986); anything else must be percent-encoded."""
AWKWARD = ["with space/a b.py", "hash#dir/c#1.py", "ünïcödé/日本.py"]


@pytest.fixture
def awkward_tree(write, tmp_path: Path, monkeypatch) -> Path:
    for name in AWKWARD:
        write(name, "import tensorflow as tf\nsess = tf.Session()\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _sarif_of(argv: list[str], capsys) -> dict:
    main(["report", "--format", "sarif", "--jobs", "1", *argv])
    return json.loads(capsys.readouterr().out)


def test_awkward_paths_are_percent_encoded_relative_uris_with_a_base(awkward_tree: Path, capsys) -> None:
    log = _sarif_of(["."], capsys)
    (run,) = log["runs"]
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base.startswith("file:///") and base.endswith("/") and RFC3986_URI_REFERENCE.match(base)
    locations = [result["locations"][0]["physicalLocation"]["artifactLocation"] for result in run["results"]]
    assert {location["uriBaseId"] for location in locations} == {"%SRCROOT%"}
    assert all(RFC3986_URI_REFERENCE.match(location["uri"]) for location in locations)
    assert sorted(unquote(location["uri"]) for location in locations) == sorted(AWKWARD)
    assert "hash%23dir/c%231.py" in {location["uri"] for location in locations}
    for result in run["results"]:
        (value,) = result["partialFingerprints"].values()
        assert re.fullmatch(r"[0-9a-f]{32}:[0-9]+", value)


def test_fingerprints_survive_moved_lines_and_count_copies(awkward_tree: Path, capsys) -> None:
    before = {result["partialFingerprints"]["migrateFindingHash/v1"] for result in _sarif_of(["."], capsys)["runs"][0]["results"]}
    path = awkward_tree / "with space" / "a b.py"
    path.write_text("import os\n\n\n" + path.read_text() + "other = tf.Session()\nsess = tf.Session()\n")
    after = [result["partialFingerprints"]["migrateFindingHash/v1"]
             for result in _sarif_of(["."], capsys)["runs"][0]["results"]]
    assert before < set(after) and len(after) == len(set(after)) == len(before) + 2
    assert sum(value.endswith(":2") for value in after) == 1, "a second copy of a line is a second occurrence"


def test_a_notebook_result_points_at_its_source_line_in_the_ipynb_file(write, tmp_path: Path, capsys, monkeypatch) -> None:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Notes\n", "about \"source\": things\n"]},
        {"cell_type": "code", "execution_count": None, "metadata": {"source": "not this"}, "outputs": [],
         "source": ["import tensorflow as tf\n", "\n", "sess = tf.Session()\n"]},
    ]
    path = write("nb.ipynb", json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1))
    monkeypatch.chdir(tmp_path)
    (result,) = _sarif_of(["nb.ipynb"], capsys)["runs"][0]["results"]
    line = result["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert path.read_text().splitlines()[line - 1].strip() == '"sess = tf.Session()\\n"'
    assert result["properties"] == {"cell": 2, "lineInCell": 3}
