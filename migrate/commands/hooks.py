"""`migrate hooks`: print the SessionRunHook → Keras callback table (the README's copy comes from here).

The table is generated from the `TF1_EQUIVALENT` literal in every file of
`modern/callbacks/`, read with `ast` (no TensorFlow needed): one source of
truth for this command, the README and `migrate report`.
"""
from __future__ import annotations

import argparse

from migrate.cli import Command


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--callbacks-dir", help="directory of callback files (default: modern/callbacks)")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from migrate.cli import UsageError
    from migrate.hook_map import load_hook_map, markdown_table

    directory = Path(args.callbacks_dir) if args.callbacks_dir else None
    if directory is not None and not directory.is_dir():
        raise UsageError(f"--callbacks-dir {directory} is not a directory.")
    entries = load_hook_map(directory)
    if not entries:
        raise UsageError(f"no file in {directory or 'modern/callbacks'} declares TF1_EQUIVALENT.")
    print(markdown_table(entries))
    return 0


COMMAND = Command(
    name="hooks",
    help="print the TF1 hook → Keras callback mapping table (Markdown)",
    configure=configure,
    run=run,
)
