from __future__ import annotations

from migrate.report.formats.markdown import render


def test_markdown_has_effort_rules_findings_hooks_and_skips(sample_report) -> None:
    text = render(sample_report)
    for heading in ("# TF1 → TF2 migration report", "## Effort", "## Findings per rule", "## Findings", "## SessionRunHook subclasses", "## Skipped files"):
        assert f"\n{heading}\n" in f"\n{text}"
    assert "| `TFM301` | placeholder | manual | 1 | modern/pipeline.py |" in text
    assert "| cell 1, line 2 | `TFM301` |" in text
