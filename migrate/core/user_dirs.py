"""Where the toolkit keeps what it writes for itself: one per-user cache directory, never the install.

A `pip install` tree may be read-only or shared, and `pip uninstall` removes
only the files it installed: whatever the toolkit writes at run time (the MNIST
cache, the hook-map cache, crash logs) goes under `user_cache_dir()`.
"""
from __future__ import annotations

import os
from pathlib import Path

CACHE_DIR_ENV = "MIGRATE_CACHE_DIR"


def user_cache_dir() -> Path:
    """`$MIGRATE_CACHE_DIR`, else `$XDG_CACHE_HOME/tf1-migrate`, else `~/.cache/tf1-migrate` (not created here)."""
    configured = os.environ.get(CACHE_DIR_ENV)
    if configured:
        return Path(configured).expanduser()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "tf1-migrate"
