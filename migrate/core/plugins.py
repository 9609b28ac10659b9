"""The modules of a registry package, listed without `pkgutil`.

Every registry here (commands, report rules and formats, fixes) is a package
whose modules register themselves when imported. `pkgutil.iter_modules` lists
them, but imports `inspect` to do it: 4 ms of every `migrate report` run's
start-up, which the report's speed target counts (`bench/report_speed.py`).
Listing the package's directories is all these flat packages need.
"""
from __future__ import annotations

import importlib
import os
from collections.abc import Iterable


def module_names(paths: Iterable[str]) -> list[str]:
    """Sorted names of the modules (`name.py`) and subpackages (`name/__init__.py`) in a package's `__path__`."""
    names = set()
    for directory in paths:
        try:
            entries = os.listdir(directory)
        except OSError:
            continue
        for entry in entries:
            stem, _, suffix = entry.partition(".")
            if suffix == "py" and stem.isidentifier() and stem != "__init__":
                names.add(stem)
            elif entry.isidentifier() and os.path.isfile(os.path.join(directory, entry, "__init__.py")):
                names.add(entry)
    return sorted(names)


def import_all(package: str, paths: Iterable[str]) -> None:
    """Import every module of `package` (whose `__path__` is `paths`), in name order."""
    for name in module_names(paths):
        importlib.import_module(f"{package}.{name}")
