"""`tf.contrib` modules that TF 1.15 fills from core modules: `summary` and `data`.

* `tf.contrib.summary` is TF 1.15's ``summary_ops_v2`` (recorded only under a
  default writer: without one, as in a model_fn, a no-op for training).
* `tf.contrib.data`'s functions are ``tf.data.experimental``'s.

A name these modules lack is refused by name.
"""
from __future__ import annotations

import tensorflow as tf

from migrate.port.contrib.registry import ContribTwin


def _summary_ops():
    from tensorflow.python.ops import summary_ops_v2

    return summary_ops_v2


TWINS = (
    ContribTwin("summary", _summary_ops, "tensorflow.python.ops.summary_ops_v2", namespace=True),
    ContribTwin("data", lambda: tf.data.experimental, "tf.data.experimental", namespace=True),
)
