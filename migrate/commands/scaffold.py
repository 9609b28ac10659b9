"""`migrate scaffold PATH... --output-dir DIR`: Keras callback skeletons for every SessionRunHook subclass.

The same as `migrate report PATH... --emit-callbacks DIR`, without the report.
A skeleton edited since it was generated is never overwritten: the new one is
written beside it as `NAME.py.new` (`.migrate-scaffold.json` in DIR records
what was generated).
"""
from __future__ import annotations

import argparse
import os
import sys

from migrate.core.cli import Command, UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    from migrate.report.file_selection import add_selection_arguments

    add_selection_arguments(parser)
    parser.add_argument("--output-dir", "-o", required=True, metavar="DIR", help="where to write one skeleton per hook")
    parser.add_argument("--jobs", "-j", type=int, default=0, metavar="N", help="worker processes (default: one per CPU)")


def run(args: argparse.Namespace) -> int:
    from migrate.report.file_selection import reads_stdin, selection_from_args
    from migrate.report.scaffold import write_callbacks
    from migrate.report.scanner import ScanOptions, scan

    selection = selection_from_args(args)
    if reads_stdin(selection.paths):
        raise UsageError("scaffold reads files (a hook's module and its bases): name them, not `-`")
    if os.path.lexists(args.output_dir) and not os.path.isdir(args.output_dir):
        raise UsageError(f"--output-dir {args.output_dir} is a file, not a directory: name a directory (it is created)")
    report = scan(selection.paths, ScanOptions(jobs=max(args.jobs, 0), select=("TFM201",), exclusions=selection.exclusions,
                                               project_root=selection.config.root))
    for item in write_callbacks(report.hooks, args.output_dir):
        print(item.path)
        if item.kept is not None:
            print(f"migrate scaffold: kept your edited {item.kept}; the new skeleton is {item.path}", file=sys.stderr)
    print(f"migrate scaffold: {len(report.hooks)} SessionRunHook subclass(es) found", file=sys.stderr)
    return 0


COMMAND = Command(
    name="scaffold",
    help="write a Keras callback skeleton for every SessionRunHook subclass found",
    configure=configure,
    run=run,
    description=__doc__,
    quick_exit=True,
)
