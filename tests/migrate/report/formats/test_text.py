from __future__ import annotations

from migrate.report.formats.text import render


def test_text_groups_by_file_and_summarises(sample_report) -> None:
    text = render(sample_report)
    assert "explore.ipynb\n  cell 1, line 2" in text
    assert "train.py\n  4:1" in text
    for heading in ("SessionRunHook subclasses (1):", "Skipped 1 file(s):", "Findings per rule:", "Findings per file:", "Migration effort:"):
        assert heading in text
    assert "after_run → on_train_batch_end" in text
    assert "Python 2 source (print statement at line 1)" in text
    assert text.rstrip().endswith("4 finding(s), 1 SessionRunHook subclass(es).")


def test_many_skips_with_one_reason_collapse(write, run_scan, tmp_path) -> None:
    for index in range(8):
        write(f"pkg{index}/__init__.py", "")
    text = render(run_scan(tmp_path))
    assert "empty file: 8 files (" in text
