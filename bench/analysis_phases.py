"""Where `migrate report`'s per-file analysis spends its time, phase by phase, against the parse.

    python -m bench.analysis_phases [TREE] [--repeats N]    # default TREE: tensor2tensor

When: before and after a change to the report's analysis (`migrate/report/analysis.py` and what it calls),
to see which phase moved. `report_speed.py` times whole runs against the parse-only floor, where a
phase's few milliseconds drown in the machine's noise; here every file is analysed in this process
(`--jobs 1`-like, the garbage collector paused as in the report), each phase's functions timed
around their calls, best of `--repeats` rounds per phase. `ast.parse` on the same texts, timed alone
with the trees freed as the floor frees them, is the yardstick. Nothing is written to `results/`:
these are diagnostics, and the report's own ratio is `report_speed.py`'s.
"""
from __future__ import annotations

import argparse
import ast
import gc
import os
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PHASES = {
    "migrate.report.analysis": (
        "read_source", "module_names", "statement_pass", "_bindings", "collect", "wrapper_references",
        "class_calls", "references", "import_references", "_run_checks", "class_infos", "_find_hook_passes",
        "_suppressions",
    ),
    "migrate.report.analysis.ast": ("parse",),
}
"""Module → the functions timed as phases (called through that module's globals, so wrapping them there counts
every call the analysis makes). `ast.parse` is wrapped on the `ast` module the analysis imported."""


def python_files(tree: Path) -> list[Path]:
    """The tree's `.py` files, hidden entries and `__pycache__` left out, as the report finds them."""
    found = []
    for directory, subdirectories, files in os.walk(tree):
        subdirectories[:] = [name for name in subdirectories if not name.startswith(".") and name != "__pycache__"]
        found += [Path(directory, name) for name in files if name.endswith(".py") and not name.startswith(".")]
    return sorted(found)


def timed_phases(totals: dict[str, float]) -> None:
    """Wrap each phase function where the analysis looks it up, adding its time to `totals[name]`."""
    import importlib

    for module_name, names in PHASES.items():
        owner: Any = importlib.import_module(module_name.removesuffix(".ast"))
        if module_name.endswith(".ast"):
            owner = owner.ast
        for name in names:
            setattr(owner, name, _timer(getattr(owner, name), name, totals))


def _timer(function: Callable[..., Any], name: str, totals: dict[str, float]) -> Callable[..., Any]:
    clock = time.perf_counter

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = clock()
        try:
            return function(*args, **kwargs)
        finally:
            totals[name] += clock() - started

    return timed


def measure(tree: Path, repeats: int) -> dict[str, float]:
    """Best-of-`repeats` seconds of each phase, the whole analysis ("analyse_file") and the bare parse ("floor")."""
    from migrate.report.analysis import analyse_file
    from migrate.scanning.sources import SourceFile

    paths = python_files(tree)
    sources = [SourceFile(str(path), str(path.relative_to(tree)), str(tree)) for path in paths]
    parse = ast.parse  # before the analysis's `ast.parse` is wrapped (it is this module's too)
    totals: dict[str, float] = defaultdict(float)
    timed_phases(totals)
    best: dict[str, float] = {}
    gc.disable()
    for source in sources:  # warm the caches (rules, API tree, the file system) once
        analyse_file(source)
    for _ in range(repeats):
        totals.clear()
        started = time.perf_counter()
        for source in sources:
            analyse_file(source)
        totals["analyse_file"] = time.perf_counter() - started
        started = time.perf_counter()
        for path in paths:
            try:
                with open(path, "rb") as handle:
                    parse(handle.read())
            except (SyntaxError, ValueError):
                pass
        totals["floor"] = time.perf_counter() - started
        for name, seconds in totals.items():
            best[name] = min(best.get(name, seconds), seconds)
    return best


def table(best: dict[str, float]) -> str:
    """The phases in milliseconds, largest first, with the analysis and the floor last."""
    phases = sorted((name for name in best if name not in ("analyse_file", "floor")), key=lambda name: -best[name])
    rows = [f"{name:22s} {best[name] * 1000:8.1f} ms" for name in phases]
    rows.append(f"{'(other)':22s} {(best['analyse_file'] - sum(best[name] for name in phases)) * 1000:8.1f} ms")
    rows.append(f"{'analyse_file, total':22s} {best['analyse_file'] * 1000:8.1f} ms")
    rows.append(f"{'floor (read + parse)':22s} {best['floor'] * 1000:8.1f} ms   ratio {best['analyse_file'] / best['floor']:.2f}x")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", type=Path, default=None, help="default: the pinned tensor2tensor tree")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")
    tree = args.tree
    if tree is None:
        from bench.report_speed import tensor2tensor_tree

        tree = tensor2tensor_tree()
    if not tree.is_dir():
        parser.error(f"TREE must be a directory, got {tree}")
    print(f"{tree}: {len(python_files(tree))} files, best of {args.repeats}")
    print(table(measure(tree, args.repeats)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
