"""Fixtures for the `migrate fix` tests: write a file into tmp_path."""
from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def write(tmp_path: Path) -> Callable[..., Path]:
    """write("pkg/a.py", source) → the path; str sources are dedented, bytes written as is."""

    def write_file(relative: str, source: str | bytes) -> Path:
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, bytes):
            path.write_bytes(source)
        else:
            path.write_text(textwrap.dedent(source), encoding="utf-8")
        return path

    return write_file
