"""`tf.contrib.lookup`: TF 1.15 re-exports the core tables and initializers (``lookup_ops``) there.

Its `index_table_from_tensor` takes the vocabulary as `mapping` and passes it
to the core function as `vocabulary_list`; the rest are the core objects. A
name ``lookup_ops`` lacks is refused by name.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from migrate.port.contrib.registry import ContribTwin


def _lookup_ops() -> Any:
    from tensorflow.python.ops import lookup_ops

    return lookup_ops


def index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1, hasher_spec=None, dtype=tf.string,
                            name=None):
    """TF 1.15's contrib `index_table_from_tensor`: the core one over `mapping` (FastHashSpec buckets by default)."""
    if mapping is None:
        raise ValueError("mapping must be specified.")
    lookup_ops = _lookup_ops()
    return lookup_ops.index_table_from_tensor(
        vocabulary_list=mapping, num_oov_buckets=num_oov_buckets, default_value=default_value,
        hasher_spec=hasher_spec or lookup_ops.FastHashSpec, dtype=dtype, name=name)


TWINS = (
    ContribTwin("lookup", _lookup_ops, "tensorflow.python.ops.lookup_ops", namespace=True),
    ContribTwin("lookup.index_table_from_tensor", lambda: index_table_from_tensor,
                "tensorflow.python.ops.lookup_ops.index_table_from_tensor(vocabulary_list=mapping, …), as TF 1.15 "
                "calls it"),
)
