"""A reference's TensorFlow name as the file wrote it, for the rules about TF1-only names
(`migrate.scanning.tf1_api`): entries are looked up by the name as written, compat layers dropped but
not canonicalised — `tf.io.gfile.GFile` and `tf.gfile.GFile` are one object, but only the second is TF1-only.
"""
from __future__ import annotations

import ast
from functools import lru_cache
from typing import TYPE_CHECKING

from migrate.scanning.names import display, is_tensorflow
from migrate.scanning.tf1_api import Tf1Name, lookup

if TYPE_CHECKING:
    from migrate.report.context import FileContext, Reference

WRITTEN_NAME_RULES = frozenset({"TFM513", "TFM514", "TFM515", "TFM516", "TFM517"})
"""Rules registered for every spelling of the TF1-only names, matching on the name as written (`written_name`)."""

def written_name(reference: Reference, context: FileContext) -> str | None:
    """The reference's public TensorFlow name as written, compat layers dropped (`tensorflow.compat.v1.log` →
    `tensorflow.log`); None for a private module's name (`tensorflow.python.ops.math_ops.log`) or one reached
    through a wrapper function. Several rules ask it of one reference: the resolved spelling it is made from
    comes with the reference (`Reference.qualified`), and each spelling is worked out once (`_written`)."""
    return _written(reference.qualified) if reference.qualified is not None else None


@lru_cache(maxsize=16384)
def _written(qualified: str) -> str | None:
    if not is_tensorflow(qualified):
        return None
    parts = qualified.split(".")
    if "python" in parts:
        return None
    parts[0] = "tensorflow"
    kept = [parts[0]]
    index = 1
    while index < len(parts):
        if parts[index] == "compat" and index + 1 < len(parts) and parts[index + 1] in ("v1", "v2"):
            index += 2
            continue
        kept.append(parts[index])
        index += 1
    return ".".join(kept)


def written_entry(reference: Reference, context: FileContext) -> Tf1Name | None:
    """The TF1-only entry of what the file wrote, if what it wrote is TF1-only. Four rules ask it of each
    reference to a TF1-only name: one cached look-up per spelling (`_written_entry`)."""
    return _written_entry(reference.qualified) if reference.qualified is not None else None


@lru_cache(maxsize=16384)
def _written_entry(qualified: str) -> Tf1Name | None:
    written = _written(qualified)
    return lookup(written) if written is not None else None


def shown(reference: Reference) -> str:
    """How a message names the reference: as written, an import's module as `tf.…`."""
    if isinstance(reference.node, (ast.Import, ast.ImportFrom)):
        return display(reference.spelling.replace("tensorflow_estimator", "tensorflow", 1))
    return reference.spelling
