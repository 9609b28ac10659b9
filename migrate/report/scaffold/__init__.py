"""Keras callback scaffolds for SessionRunHook subclasses (`migrate scaffold`, `report --emit-callbacks`).

`emit` builds each file; `rewrite` holds the LibCST transformations,
`keras_names` the attributes Keras' Callback owns, `free_names` the
undefined-global analysis, `advice` the TODO reasons, `sources` the parsed
hook modules.
"""
from __future__ import annotations

from migrate.report.scaffold.emit import callback_name, callback_source, emit_callbacks, write_callbacks

__all__ = ["callback_name", "callback_source", "emit_callbacks", "write_callbacks"]
