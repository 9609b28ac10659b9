"""Crash logs: an unexpected error's traceback kept in a file, so the terminal says where, not the whole stack.

An unexpected exception is a bug in the toolkit (or in a user's pair file),
never a verdict: `migrate.core.cli` exits with `EXIT_INTERNAL`, prints the
error in one line and the path of the log written here, under the user cache
directory (`crashes/`), else the temporary directory.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

from migrate.core.user_dirs import user_cache_dir


def write_crash_log(program: str, error: BaseException) -> Path | None:
    """Write `error`'s traceback (with the command line and versions) to a new file; its path, or None if
    no directory takes it."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    name = f"{program.replace(' ', '-').replace('/', '-')}-{stamp}-{os.getpid()}.log"
    text = (
        f"command: {' '.join(sys.argv)}\n"
        f"python: {sys.version.split()[0]} ({sys.executable})\n"
        f"cwd: {os.getcwd()}\n\n"
        + "".join(traceback.format_exception(error))
    )
    for directory in (user_cache_dir() / "crashes", Path(tempfile.gettempdir())):
        try:
            directory.mkdir(parents=True, exist_ok=True)
            path = directory / name
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue
    return None
