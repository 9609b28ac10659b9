"""The parse-only floor of `report_speed.py`: the least any tool that parses the same files must spend.

    python bench/parse_floor.py TREE [--jobs N] [--no-gc]     # prints how many files parsed

It finds the `.py` files as `migrate report` does (a directory walk skipping
hidden entries, `__pycache__` and `node_modules`), reads each one and `ast.parse`s its
bytes (the parser decodes them, PEP 263 cookie included) in a pool of `--jobs`
forked processes fed the report's chunks (largest files first, at most 8 files
or 256 KiB each), and does nothing else. `--no-gc` is the floor with what
the report does to the interpreter: the cyclic garbage collector paused in
the parent and the workers, and the process ended without tearing the
interpreter down (`os._exit` once its output is flushed, as
`migrate.core.cli.end_process`); that alone takes about 7 ms off this
script's exit on `tensorflow_estimator`, its last collection included.

Why a script of its own: the floor is timed as a whole subprocess, start-up
included, like the report. Run as `report_speed.py --parse-only` it also
imported what only the benchmark needs (`importlib.metadata`, `statistics`,
`platform`, `json`, `subprocess`, ...: about 40 ms of CPU, an eighth of the
`tensorflow_estimator` floor's), which flattered the report's ratio. Here the
imports are those the work needs: `os`, `ast`, `gc`, the process pool, and
`argparse` (a command line tool parses its arguments; the report does too).
"""
from __future__ import annotations

import argparse
import ast
import gc
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

CHUNK_SIZE = 8
CHUNK_BYTES = 256 * 1024
SKIPPED_DIRECTORIES = frozenset({"__pycache__", "node_modules"})
"""As `migrate.report.scanner` (not imported: its import time is the report's, not the floor's)."""


def python_files(tree: str) -> list[tuple[int, str]]:
    """(size, path) of every `.py` file under `tree`, hidden entries and SKIPPED_DIRECTORIES left out."""
    found = []
    for directory, subdirectories, files in os.walk(tree):
        subdirectories[:] = [name for name in subdirectories if not name.startswith(".") and name not in SKIPPED_DIRECTORIES]
        for name in files:
            if name.endswith(".py") and not name.startswith("."):
                path = os.path.join(directory, name)
                found.append((os.stat(path).st_size, path))
    return found


def balanced_chunks(sized: list[tuple[int, str]]) -> list[list[str]]:
    """Largest files first, at most CHUNK_SIZE files or CHUNK_BYTES per chunk: the report's `_balanced_chunks`."""
    chunks: list[list[str]] = []
    current: list[str] = []
    budget = 0
    for size, path in sorted(sized, key=lambda item: -item[0]):
        if current and (len(current) == CHUNK_SIZE or budget + size > CHUNK_BYTES):
            chunks.append(current)
            current, budget = [], 0
        current.append(path)
        budget += size
    if current:
        chunks.append(current)
    return chunks


def parse_chunk(paths: list[str], collect_garbage: bool = True) -> int:
    if not collect_garbage:
        gc.disable()
    parsed = 0
    for path in paths:
        try:
            with open(path, "rb") as handle:
                ast.parse(handle.read())
            parsed += 1
        except (SyntaxError, ValueError):
            pass
    return parsed


def parse_tree(tree: str, jobs: int, collect_garbage: bool = True) -> int:
    """How many files under `tree` parsed, read and parsed in a pool of `jobs` forked processes."""
    chunks = balanced_chunks(python_files(tree))
    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as executor:
        return sum(executor.map(parse_chunk, chunks, [collect_garbage] * len(chunks)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", metavar="TREE", help="directory whose .py files are parsed")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2, as the benchmark)")
    parser.add_argument("--no-gc", action="store_true",
                        help="pause the cyclic GC (parent and workers) and exit without teardown, as the report does")
    args = parser.parse_args(argv)
    if args.jobs < 1 or not os.path.isdir(args.tree):
        parser.error(f"--jobs must be at least 1 and TREE a directory (got --jobs {args.jobs}, TREE {args.tree})")
    if args.no_gc:
        gc.disable()
    print(parse_tree(args.tree, args.jobs, collect_garbage=not args.no_gc), flush=True)
    if args.no_gc:
        os._exit(0)  # no interpreter teardown, as `migrate report` ends
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
