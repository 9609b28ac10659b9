"""`tf.contrib` modules that TF 1.15 fills from core modules: `summary`, `data`, `lookup`.

* `tf.contrib.summary` is TF 1.15's ``summary_ops_v2`` (recorded only under a
  default writer: without one, as in a model_fn, a no-op for training).
* `tf.contrib.data`'s functions are ``tf.data.experimental``'s.
* `tf.contrib.lookup`'s tables and initializers are ``lookup_ops``'.

A name these modules lack is refused by name.
"""
from __future__ import annotations

import tensorflow as tf

from migrate.port.contrib.registry import ContribTwin


def _summary_ops():
    from tensorflow.python.ops import summary_ops_v2

    return summary_ops_v2


def _lookup_ops():
    from tensorflow.python.ops import lookup_ops

    return lookup_ops


TWINS = (
    ContribTwin("summary", _summary_ops, "tensorflow.python.ops.summary_ops_v2", namespace=True),
    ContribTwin("data", lambda: tf.data.experimental, "tf.data.experimental", namespace=True),
    ContribTwin("lookup", _lookup_ops, "tensorflow.python.ops.lookup_ops", namespace=True),
)
