"""Message snapshots: for each rule, a source and the exact `line:col CODE message` lines it gives.

Each `snapshots/CODE.txt` holds the source (`# source` section, written from
the rule's documented Example the first time) and the expected findings of
that rule (`# findings` section). A changed message fails here; after
reviewing the new text, rewrite the findings sections with
`MIGRATE_UPDATE_SNAPSHOTS=1 pytest tests/migrate/report/rules/test_snapshots.py`.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from migrate.report.registry import load_rules
from tests.migrate.report.rules.doc_snippets import runnable, section

SNAPSHOTS = Path(__file__).with_name("snapshots")
SOURCE, FINDINGS = "# source\n", "# findings\n"
RULES = sorted(load_rules().values(), key=lambda rule: rule.code)


def read_snapshot(path: Path, rule) -> tuple[str, str | None]:
    if not path.exists():
        return runnable(section(rule.doc, "Example")), None
    text = path.read_text(encoding="utf-8")
    source, _, findings = text.removeprefix(SOURCE).partition(FINDINGS)
    return source, findings


@pytest.mark.parametrize("rule", RULES, ids=[f"{rule.code} {rule.name}" for rule in RULES])
def test_messages_match_the_snapshot(rule, write, run_scan, tmp_path: Path) -> None:
    path = SNAPSHOTS / f"{rule.code}.txt"
    source, expected = read_snapshot(path, rule)
    report = run_scan(write("snippet.py", source), select=(rule.code,))
    actual = "".join(f"{finding.line}:{finding.column + 1} {finding.code} {finding.message}\n" for finding in report.findings)
    actual = actual.replace(str(tmp_path), "<tmp>")  # messages that name another file
    if os.environ.get("MIGRATE_UPDATE_SNAPSHOTS") == "1":
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(SOURCE + source + FINDINGS + actual, encoding="utf-8")
        expected = actual
    assert expected is not None, f"no snapshot for {rule.code}: create it with MIGRATE_UPDATE_SNAPSHOTS=1"
    assert actual, f"{rule.code}: the snapshot source gives no finding"
    assert actual == expected
