"""`tf.compat.v1.train.piecewise_constant(step, boundaries, values)` → `keras.optimizers.schedules.PiecewiseConstantDecay`.

TF1 builds it from `tf.case` (a conditional, which the porter otherwise
refuses); Keras' schedule selects the same value for every step, so the
learning rate is the same float.
"""
from __future__ import annotations

from migrate.port.graph import Claim, python_literal
from migrate.port.records import Conversion
from migrate.port.registry import Twin


def _numbers(values) -> list | None:
    try:
        return [value.item() if hasattr(value, "item") else value for value in values]
    except TypeError:
        return None


def match(op, view):
    call = view.call_of(op, "tf.compat.v1.train.piecewise_constant")
    if call is None or not hasattr(call.result, "op"):
        return None
    boundaries, values = _numbers(call.arguments["boundaries"]), _numbers(call.arguments["values"])
    if boundaries is None or values is None or any(hasattr(item, "op") for item in [*boundaries, *values]):
        return None
    ops = [view.needed[name] for name in view.needed if view.needed[name]._id in call.op_ids]  # noqa: SLF001
    schedule = f"keras.optimizers.schedules.PiecewiseConstantDecay({python_literal(boundaries)}, {python_literal(values)})"
    return Claim(ops, [call.arguments["x"]], call.result, lambda args: f"{schedule}({args[0]})",
                 Conversion(call.where or view.location(op), call.api, schedule, "training"), None, "learning_rate")


TWIN = Twin("piecewise_constant", match, priority=5)
