"""Dropout ops no recorded call made (a `tf.keras.layers.Dropout` inside the model_fn, TF internals) → `keras.layers.Dropout`.

Recognised by op pattern: a name scope ``…/dropout`` holding a `RandomUniform`,
one tensor entering it, one leaving it, and the rate in its `GreaterEqual`
(TF 2's ``keep = uniform >= rate``). Like every dropout, it draws other random
numbers in Keras (PORT.md says so).
"""
from __future__ import annotations

import re

from migrate.port.graph import Claim, LayerSpec
from migrate.port.records import Conversion
from migrate.port.registry import Twin

SCOPE = re.compile(r"^(.*?(?:^|/)dropout(?:_\d+)?)/")


def match(op, view):
    found = SCOPE.match(op.name)
    if found is None:
        return None
    prefix = found.group(1) + "/"
    cluster = [other for other in view.order if other.name.startswith(prefix)]
    if not any(other.type.startswith("RandomUniform") for other in cluster):
        return None
    members = {other.name for other in cluster}
    entering = {tensor.name: tensor for other in cluster for tensor in other.inputs
                if tensor.op.name not in members and view.constant(tensor) is None and tensor.dtype.is_floating}
    leaving = [output for other in cluster for output in other.outputs
               if output.name in view.targets or any(c.name not in members for c in view.consumers(output))]
    if len(entering) != 1 or len(leaving) != 1:
        return None
    rates = [view.constant(tensor) for other in cluster if other.type == "GreaterEqual" for tensor in other.inputs]
    rates = [float(rate) for rate in rates if rate is not None and rate.ndim == 0]
    if len(rates) != 1:
        return None
    rate = view.spell(rates[0])
    attribute = view.unique_attribute(found.group(1).replace("/", "_"), f"keras.layers.Dropout({rate})")
    constructor = f"keras.layers.Dropout({rate}, name={attribute!r})"
    return Claim(cluster, list(entering.values()), leaving[0], lambda args: f"self.{attribute}({args[0]}, training=training)",
                 Conversion(view.location(op), f"dropout ops ({found.group(1)}: random uniform ≥ rate, scale)", constructor),
                 LayerSpec(attribute, constructor, name=attribute), attribute)


TWIN = Twin("dropout_ops", match, priority=6)
