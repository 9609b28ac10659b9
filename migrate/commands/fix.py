"""`migrate fix PATH...`: apply the mechanical fixes of `migrate report` in place."""
from __future__ import annotations

import argparse
import os
import sys

from migrate.core.cli import Command, UsageError, non_negative_int, positive_int

DESCRIPTION = """\
Rewrite what is mechanical and behaviour-preserving (the rules marked
[automatic] by `migrate report`): tf.logging -> absl.logging, tf.app.flags /
tf.flags -> absl.flags, tf.app.run -> absl.app.run, adding the imports they
need. Format-preserving (comments, blank lines, quoting, encoding and line
endings stay); notebooks keep outputs and metadata. Files are rewritten
atomically and keep their permissions; a second run changes nothing.
Uses that cannot move safely are left as is and listed with the reason
(`migrate explain CODE` says what the fix does and does not do per rule).

exit status: 0 done (with --diff: nothing to change), 1 with --diff: there
are changes, or a file could not be rewritten; 2 usage error.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    from migrate.report.sources import DEFAULT_MAX_BYTES

    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or directories to fix (.py and .ipynb)")
    parser.add_argument("--diff", action="store_true", help="print a unified diff and change nothing")
    parser.add_argument("--jobs", "-j", type=non_negative_int, default=0, metavar="N",
                        help="worker processes (default: one per CPU)")
    parser.add_argument("--max-file-size", type=positive_int, default=DEFAULT_MAX_BYTES, metavar="BYTES",
                        help=f"skip files larger than this (default: {DEFAULT_MAX_BYTES})")
    parser.add_argument("--quiet", "-q", action="store_true", help="do not list the uses left as is")


def run(args: argparse.Namespace) -> int:
    from migrate.fix.apply import fix_paths

    missing = [path for path in args.paths if not os.path.lexists(path)]
    if missing:
        raise UsageError(f"no such file or directory: {', '.join(missing)}")
    results = fix_paths(args.paths, write=not args.diff, jobs=args.jobs, max_bytes=args.max_file_size)
    changed = [result for result in results if result.changed]
    for result in results:
        if args.diff and result.diff:
            sys.stdout.write(result.diff)
        elif result.written:
            print(f"fixed {result.path} ({result.rewrites} rewrite{'s' if result.rewrites != 1 else ''})", file=sys.stderr)
        if result.skipped:
            print(f"skipped {result.path}: {result.skipped}", file=sys.stderr)
        if not args.quiet:
            for note in result.notes:
                print(f"{result.path}: {note}", file=sys.stderr)
            for item in result.declined:
                print(f"{result.path}:{item.line}: {item.code} `{item.spelling}` left as is: {item.reason}", file=sys.stderr)
    failed = [result for result in results if result.failed]
    verb = "would rewrite" if args.diff else "rewrote"
    skipped = sum(1 for result in results if result.skipped)
    print(
        f"migrate fix: {verb} {len(changed) if args.diff else sum(result.written for result in results)} of {len(results)} file(s)"
        + (f", {skipped} skipped" if skipped else "")
        + (f", {len(failed)} could not be rewritten" if failed else ""),
        file=sys.stderr,
    )
    if failed or (args.diff and changed):
        return 1
    return 0


COMMAND = Command(
    name="fix",
    help="apply the mechanical fixes (tf.logging, tf.flags, tf.app.run) in place, or --diff",
    configure=configure,
    run=run,
    description=DESCRIPTION,
    quick_exit=True,
)
