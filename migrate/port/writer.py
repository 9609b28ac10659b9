"""Writing a port into ``--out``: all files at once or none, and never over a directory the user did not give up.

A finished port is staged in a sibling temporary directory and renamed into
place, so ``--out`` never holds half a port; an existing ``--out`` is
replaced only with ``--force`` (it is moved aside first and removed once the
new one is in place). A refused port writes PORT.md alone, saying so. The
verdict is added to PORT.md afterwards by `replace_file` (write, then rename).
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path


class OutExists(Exception):
    """``--out`` exists and ``--force`` was not given; nothing was written."""


def check_out(out: Path, force: bool) -> None:
    """Refuse an existing ``--out`` without ``--force``, before any work is done."""
    if out.exists() and not force:
        raise OutExists(f"{out} exists; choose another --out or pass --force to replace it")
    if out.exists() and not out.is_dir():
        raise OutExists(f"{out} exists and is not a directory; choose another --out")


def write_port(out: Path, files: Mapping[str, str], force: bool) -> list[Path]:
    """Write `files` (name → text) as the whole content of `out`, atomically; return the written paths."""
    check_out(out, force)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.port-", dir=out.parent))
    try:
        for name, text in files.items():
            (staging / name).write_text(text, encoding="utf-8")
        previous = None
        if out.exists():
            previous = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            previous.rmdir()
            os.replace(out, previous)
        os.replace(staging, out)
        if previous is not None:
            shutil.rmtree(previous, ignore_errors=True)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return [out / name for name in files]


def replace_file(path: Path, text: str) -> None:
    """Replace one file's text atomically (the verdict added to PORT.md)."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
