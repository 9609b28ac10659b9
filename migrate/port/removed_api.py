"""TF1 names gone from TensorFlow 2 (also from `tf.compat.v1`): which one a raising `model_fn` wrote.

A model_fn written for TF 1.x often calls `tf.contrib`. `migrate port` runs
the contrib names that have an exact TF1-core twin as that twin
(`migrate.port.contrib`); any other raises an AttributeError or ImportError
that says neither which construct nor what to write instead. `explain` reads
the source line the error came from and names the `tf.contrib` spelling on it
that has no twin.
"""
from __future__ import annotations

import re

from migrate.port.contrib.registry import runs

_CONTRIB = re.compile(r"\b[A-Za-z_][\w.]*\.contrib(?:\.\w+)+|\btensorflow\.contrib(?:\.\w+)*")


def _without_twin(path: str) -> str | None:
    """The shortest prefix of `path` (below ``tf.contrib``) that does not run as a twin, or None when all of it runs."""
    parts = path.split(".")
    for end in range(1, len(parts) + 1):
        if not runs(".".join(parts[:end])):
            return ".".join(parts[:end])
    return None


def explain(error: BaseException, source_line: str) -> tuple[str, str] | None:
    """(what, todo) when `error` is a `tf.contrib` name on `source_line` that has no TF1-core twin; else None."""
    if not isinstance(error, (AttributeError, ImportError)) or "contrib" not in f"{error} {source_line}":
        return None
    match = _CONTRIB.search(source_line or "")
    if match is None:
        return None
    spelled = match.group(0)
    below = spelled[spelled.index("contrib"):].partition(".")[2]
    if _without_twin(below) is None:
        return None
    what = (f"`{spelled}` is tf.contrib, which TensorFlow 2 removed (tf.compat.v1 has no contrib), and it has no "
            "TF1-core twin that migrate port runs in its place")
    return what, "rewrite that part with tf.compat.v1 ops, or port it by hand"
