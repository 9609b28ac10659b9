"""Which callback in `modern/callbacks/` replaces which built-in hook.

A thin, cached view of `migrate.core.hook_map` (the one source of truth: each
callback file's `TF1_EQUIVALENT` literal). While those files are missing or
malformed the map is empty and rules fall back to generic advice. The
directory can be overridden (`--callbacks-dir`, tests); the scanner hands
the map to each file's checks through `FileContext.hook_map`.
"""
from __future__ import annotations

import sys
from pathlib import Path

from migrate.core.hook_map import HookEquivalent, load_hook_map

_loaded: dict[Path | None, dict[str, HookEquivalent]] = {}


def equivalents(directory: Path | None = None) -> dict[str, HookEquivalent]:
    """hook class name → its entry; `{}` (generic advice) when the map cannot be read."""
    if directory not in _loaded:
        try:
            _loaded[directory] = {entry.hook: entry for entry in load_hook_map(directory)}
        except (OSError, SyntaxError, ValueError) as error:
            print(f"migrate report: hook map unavailable ({error}); giving generic callback advice", file=sys.stderr)
            _loaded[directory] = {}
    return _loaded[directory]
