"""Fixtures for the `migrate report` tests: scan a snippet or a small tree in tmp_path."""
from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from migrate.report.scanner import Report, ScanOptions, scan


@pytest.fixture
def write(tmp_path: Path) -> Callable[..., Path]:
    """write("pkg/a.py", source) → the path; sources are dedented."""

    def write_file(relative: str, source: str | bytes = "") -> Path:
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, bytes):
            path.write_bytes(source)
        else:
            path.write_text(textwrap.dedent(source), encoding="utf-8")
        return path

    return write_file


@pytest.fixture
def run_scan(tmp_path: Path) -> Callable[..., Report]:
    """Scan paths serially with no hook map (generic advice) unless `callbacks_dir` is given."""

    def run(*paths: Path | str, **options) -> Report:
        options.setdefault("jobs", 1)
        options.setdefault("callbacks_dir", tmp_path / "no-callbacks-here")
        return scan([str(path) for path in paths], ScanOptions(**options))

    return run


@pytest.fixture
def findings(tmp_path: Path, run_scan) -> Callable[[str, str], list[tuple[int, str]]]:
    """findings(source, "TFM301") → [(line, code), ...] for that rule (prefix) in one file."""

    def find(source: str, select: str, filename: str = "example.py") -> list[tuple[int, str]]:
        path = tmp_path / filename
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        report = run_scan(path, select=(select,))
        assert not report.skipped, report.skipped
        return [(finding.line, finding.code) for finding in report.findings]

    return find


@pytest.fixture
def messages(tmp_path: Path, run_scan) -> Callable[[str, str], list[str]]:
    def find(source: str, select: str) -> list[str]:
        path = tmp_path / "example.py"
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        return [finding.message for finding in run_scan(path, select=(select,)).findings]

    return find
