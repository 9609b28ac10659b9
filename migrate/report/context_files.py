"""Files read for context only: the in-repo bases of the scanned classes, found from the project root.

pre-commit passes only the staged files: a new hook class whose base
(`from pkg.base import BaseHook`) sits in an unchanged file would otherwise
not be recognised as a hook. After the scan, every base that no scanned file
defines is looked up as a module path under the project root or its `src/`
(`pkg/base.py`, `pkg/base/__init__.py`); that file is analysed too, and its
own bases in turn (up to `LIMIT` files). Context files feed the class
hierarchy only: their findings and hooks are never reported.
"""
from __future__ import annotations

import os
from collections.abc import Callable

from migrate.report.hierarchy import ClassIndex
from migrate.report.model import FileResult
from migrate.scanning.sources import SourceFile

LIMIT = 200
"""At most this many context files per run (a chain of bases is short; this bounds a pathological tree)."""


def context_results(
    scanned: list[FileResult], project_root: str, analyse: Callable[[SourceFile], FileResult]
) -> list[FileResult]:
    """The analysed files outside the scan that define bases of the scanned classes (and of theirs)."""
    if not project_root:
        return []
    roots = [path for path in (os.path.abspath(project_root), os.path.join(os.path.abspath(project_root), "src"))
             if os.path.isdir(path)]
    known: set[str] = set()
    """Real paths of the files already analysed; filled on first need (a realpath per file costs 75 ms
    on tensor2tensor's 453 files, and most runs find every base in the scanned files)."""
    loaded: list[FileResult] = []
    frontier = scanned
    top_level: dict[str, bool] = {}
    """First name of a dotted base → whether the project root has a module or package of that name."""

    def in_project(dotted: str) -> bool:
        first = dotted.partition(".")[0]
        if first not in top_level:
            top_level[first] = any(os.path.exists(os.path.join(root, first)) or os.path.isfile(os.path.join(root, first + ".py"))
                                   for root in roots)
        return top_level[first]

    while frontier and len(loaded) < LIMIT:
        candidates = sorted({base for result in frontier for info in result.classes for base in info.bases
                             if base and "." in base and in_project(base)})
        if not candidates:
            break
        index = ClassIndex([*scanned, *loaded])
        found = []
        for dotted in candidates:
            if index.resolve(dotted) is not None:
                continue
            path = next(filter(None, (_module_file(root, dotted) for root in roots)), None)
            if path is None:
                continue
            if not known:
                known.update(os.path.realpath(result.path) for result in scanned)
            real = os.path.realpath(path)
            if real in known:
                continue
            known.add(real)
            result = analyse(SourceFile(path, os.path.relpath(path), _root_of(path, roots)))
            if not result.skipped:
                found.append(result)
        loaded += found
        frontier = found
    return loaded


def _root_of(path: str, roots: list[str]) -> str:
    """The deepest search root holding `path` (module names are relative to it)."""
    return max((root for root in roots if path.startswith(root + os.sep)), key=len)


def _module_file(root: str, dotted: str) -> str | None:
    """The file under `root` defining the longest module prefix of `dotted` (`a.b.C` → `a/b.py`), if any."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        if not all(part.isidentifier() for part in parts[:cut]):
            continue
        stem = os.path.join(root, *parts[:cut])
        for candidate in (stem + ".py", os.path.join(stem, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate
    return None
