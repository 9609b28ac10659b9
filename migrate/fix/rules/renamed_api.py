"""TFM513 renamed-api: TF1 names renamed to TF2's name of the same function (`tf.log` → `tf.math.log`).

The table is the report's derived data (`migrate.fix.renames`); the rewrite
is done on Python's own AST by byte span, not by LibCST.
"""
from __future__ import annotations

from migrate.fix.registry import Fix, register

FIX = register(Fix(
    code="TFM513",
    will=(
        "renames each TF1 name whose function TF2 has under another name (tf.log → tf.math.log, "
        "tf.random_normal → tf.random.normal, tf.gfile.GFile → tf.io.gfile.GFile; the table is derived from the "
        "real API), keeping the file's own `tf` (the new name is valid under tf.compat.v1 too), and re-aligns "
        "continuation lines that were aligned to the call's opening parenthesis"
    ),
    will_not=(
        "names imported directly (`from tensorflow import log`), chains through another alias "
        "(`gfile = tf.gfile; gfile.Open`) or split over lines: those findings stay"
    ),
    moves=(),
))
