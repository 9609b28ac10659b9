"""TFM515 moved-api: calls of the `tf.gfile` functions renamed to `tf.io.gfile`'s (`tf.gfile.Exists(p)` →
`tf.io.gfile.exists(p)`).

In TF 2.15 each TF1 `tf.gfile` function only calls its `tf.io.gfile` twin, whose parameters are named otherwise
(`filename`/`dirname` → `path`, `oldpath`/`newpath` → `src`/`dst`, `in_order` → `topdown`): a call passing none
of TF1's names by keyword means the same renamed. By byte span on Python's AST (`migrate.fix.renames`).
"""
from __future__ import annotations

from migrate.fix.registry import Fix, register

FIX = register(Fix(
    code="TFM515",
    will=(
        "renames calls of the tf.gfile functions to their tf.io.gfile names (tf.gfile.Exists(p) → "
        "tf.io.gfile.exists(p), MakeDirs → makedirs, Glob → glob, ListDirectory → listdir, …), keeping the file's "
        "own `tf`, where the call passes none of TF1's keyword names (filename=, dirname=, oldpath=, newpath=, "
        "oldname=, newname=, in_order=) nor **kwargs"
    ),
    will_not=(
        "such calls with those keywords, tf.gfile names that are not called or are reached through another "
        "name (`from tensorflow import gfile`), and the other moved names "
        "(tf.image.resize_images, tf.parse_single_example, tf.multinomial, tf.arg_max, …), whose TF2 function "
        "differs: those findings stay"
    ),
    moves=(),
))
