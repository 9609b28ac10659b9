"""A static lookup table filled from constants (`index_table_from_tensor`, `tf.contrib.lookup`'s, a `HashTable` over a
`KeyValueTensorInitializer`) and its lookup → a `tf.lookup.StaticHashTable` made once in `__init__`.

TF1 creates the table (``HashTableV2``), fills it in the table initializer
(``InitializeTableV2`` with constant keys and values: the vocabulary and its
indices; ``LookupTableImportV2`` on TF 2) and looks keys up with a default (``LookupTableFindV2``): string
labels mapped to class ids, characters to their indices. The twin makes the
same table from the same keys, values and default, so every lookup gives the
same ids. Tables filled from files, with hash buckets for unknown keys, or
looked up more than once are left to the refusal.
"""
from __future__ import annotations

import tensorflow as tf

from migrate.port.graph import Claim, LayerSpec, python_literal, snake
from migrate.port.records import Conversion
from migrate.port.registry import Twin

FILLING = ("InitializeTableV2", "LookupTableImportV2")
"""The ops a `KeyValueTensorInitializer` fills its table with (TF 1.x; TF 2.x imports the keys and values)."""


def _filled(table) -> tuple | None:
    """(keys, values) of the constants the table's initializer fills it with, or None."""
    initializer = next((op for op in table.outputs[0].consumers() if op.type in FILLING), None)
    if initializer is None:
        return None
    try:
        keys, values = (tf.get_static_value(tensor) for tensor in initializer.inputs[1:3])
    except (TypeError, ValueError):
        return None
    return None if keys is None or values is None else (keys, values)


def match(op, view):
    if op.type != "HashTableV2":
        return None
    find = view.sole_consumer(op.outputs[0])
    filled = _filled(op)
    if find is None or find.type != "LookupTableFindV2" or filled is None:
        return None
    default = view.constant(find.inputs[2])
    if default is None:
        return None
    keys, values = filled
    key_type, value_type = op.get_attr("key_dtype").name, op.get_attr("value_dtype").name
    constructor = (f"tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer({python_literal(keys)}, "
                   f"{python_literal(values)}, tf.{key_type}, tf.{value_type}), {python_literal(default)})")
    attribute = view.unique_attribute(f"{snake(op.name.split('/')[0])}_table", constructor)
    return Claim([op, find], [find.inputs[1]], find.outputs[0], lambda args: f"self.{attribute}.lookup({args[0]})",
                 Conversion(view.location(find), f"lookup in a table of {len(keys)} constant keys", constructor),
                 LayerSpec(attribute, constructor), attribute)


TWIN = Twin("lookup_table", match, priority=10)
