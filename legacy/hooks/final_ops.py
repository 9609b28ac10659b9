"""`FinalOpsHook`: evaluate tensors once, in `end`, and keep their values.

`Estimator.evaluate` uses one to read the metric values after the last batch;
in a `MonitoredTrainingSession` loop it reads final values (say the global
step or a weight norm) without an extra session. Tensors may be given by name,
so the hook can be built before the graph; a variable's value is
`legacy.hooks.names.value_of(name)`. Not run when
the loop ends with an error other than input exhaustion.

Twin: `modern/callbacks/final_ops.py` (`evaluate(return_dict=True)` /
`on_test_end`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import tensorflow as tf


def make_final_ops_hook(
    final_ops: Mapping[str, Any] | Any, final_ops_feed_dict: Mapping[Any, Any] | None = None
) -> tf.compat.v1.train.FinalOpsHook:
    """Run `final_ops` (tensors, tensor names, or a dict of them) at `end`; read `hook.final_ops_values`."""
    return tf.compat.v1.train.FinalOpsHook(final_ops, final_ops_feed_dict=final_ops_feed_dict)
