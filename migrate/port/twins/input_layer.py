"""`tf.compat.v1.feature_column.input_layer(features, columns)` → `modern.feature_columns.DenseFeatures` of the columns' twins.

Recognised by the recorded call; the columns are written by the canned
porter's `ColumnWriter` (one converter per column kind, exact twins), in a
module-level function of keras_model.py. Columns that create variables
(embeddings) or normalizer functions are left to the refusal here: their
weights need a mapping this twin does not write yet.
"""
from __future__ import annotations

from migrate.port.graph import Claim, LayerSpec, snake
from migrate.port.records import Conversion
from migrate.port.registry import Twin


def match(op, view):
    call = view.call_of(op, "tf.compat.v1.feature_column.input_layer")
    if call is None or not hasattr(call.result, "op"):
        return None
    from migrate.port.canned.columns import ColumnWriter
    from migrate.port.canned.emit import columns_function
    from migrate.port.canned.record import CannedRefusal

    features, columns = call.arguments.get("features"), call.arguments.get("feature_columns")
    if not isinstance(features, dict) or not columns:
        return None
    cluster = [view.needed[name] for name in view.needed if view.needed[name]._id in call.op_ids]  # noqa: SLF001
    if any(member.type in ("VarHandleOp", "VariableV2") for member in view.graph.get_operations()
           if member._id in call.op_ids):  # noqa: SLF001
        return None
    writer = ColumnWriter(params=dict(view.params))
    try:
        function = columns_function("input_layer_columns", list(columns), writer)
    except CannedRefusal:
        return None
    if writer.normalizers or any(key not in features for key in writer.keys):
        return None
    name = call.result.op.name.split("/")[0] or "input_layer"
    attribute = snake(name)
    constructor = f"fc.DenseFeatures(input_layer_columns(params), name={name!r})"
    keys = list(writer.keys)
    spec = LayerSpec(attribute, constructor, name=name, module_code=function,
                     imports=("from modern import feature_columns as fc",))
    return Claim(cluster, [features[key] for key in keys], call.result,
                 lambda args: f"self.{attribute}({{{', '.join(f'{key!r}: {arg}' for key, arg in zip(keys, args))}}})",
                 Conversion(call.where or view.location(op), f"feature_column.input_layer ({', '.join(c.name for c in columns)})",
                            constructor), spec, attribute)


TWIN = Twin("input_layer", match, priority=1)
