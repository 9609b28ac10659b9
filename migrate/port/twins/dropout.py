"""`tf.nn.dropout` / `tf.compat.v1.layers.dropout` → `keras.layers.Dropout` (active in training only, as in TF1 TRAIN).

Recognised by the recorded call: its ops (random uniform, compare, scale,
select) are taken as one cluster. Dropout draws other random numbers in Keras,
so a port with dropout holds parity in the statistical mode only; exact
checks run with the rate at 0 (PORT.md says so).
"""
from __future__ import annotations

from migrate.port.graph import Claim, LayerSpec
from migrate.port.records import Conversion
from migrate.port.registry import Twin

APIS = ("tf.nn.dropout", "tf.compat.v1.nn.dropout", "tf.compat.v1.layers.dropout")


def _rate(call, view):
    arguments = call.arguments
    if call.api == "tf.compat.v1.nn.dropout" and arguments.get("rate") is None:
        keep = arguments.get("keep_prob")
        value = view.constant(keep) if hasattr(keep, "op") else keep
        return None if value is None else view.spell(float(1.0 - float(value)))
    rate = arguments.get("rate")
    value = view.constant(rate) if hasattr(rate, "op") else rate
    return None if value is None else view.spell(float(value))


def match(op, view):
    call = next((call for call in view.calls if call.api in APIS and op._id in call.op_ids), None)  # noqa: SLF001
    if call is None or not hasattr(call.result, "op"):
        return None
    source = call.arguments.get("x", call.arguments.get("inputs"))
    rate = _rate(call, view)
    if source is None or rate is None:
        return None
    ops = [view.needed[name] for name in view.needed if view.needed[name]._id in call.op_ids]  # noqa: SLF001
    training = call.arguments.get("training", True) if call.api == "tf.compat.v1.layers.dropout" else True
    if not isinstance(training, bool):
        return None
    given = call.arguments.get("name")
    scope = [part for part in call.result.op.name.split("/") if "dropout" in part.lower()]
    attribute = view.unique_attribute(given if isinstance(given, str) else "_".join(scope[-1:]) or "dropout",
                                      f"keras.layers.Dropout({rate})")
    constructor = f"keras.layers.Dropout({rate}, name={attribute!r})"
    flag = "training" if training else "False"
    return Claim(ops, [source], call.result, lambda args: f"self.{attribute}({args[0]}, training={flag})",
                 Conversion(call.where or view.location(op), call.api, constructor), LayerSpec(attribute, constructor, name=attribute),
                 attribute)


TWIN = Twin("dropout", match, priority=5)
