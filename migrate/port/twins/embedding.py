"""`tf.nn.embedding_lookup(table, ids)` / `tf.gather` on a rank-2 variable → `keras.layers.Embedding`.

The lookup is a gather of the table's rows in both: the same values, and a
sparse gradient (`IndexedSlices`) that the TF1-exact optimizers apply as TF1
does. Partitioned tables, max_norm and combiners are left to the refusal.
"""
from __future__ import annotations

from migrate.port.fusion import layer_name
from migrate.port.graph import Claim, LayerSpec, snake
from migrate.port.records import Conversion
from migrate.port.registry import Twin


def match(op, view):
    if op.type not in ("ResourceGather", "GatherV2"):
        return None
    table = view.variable(op.inputs[0])
    if table is None or len(view.variable_shape(table)) != 2:
        return None
    if op.type == "ResourceGather" and op.get_attr("batch_dims"):
        return None
    if op.type == "GatherV2" and (view.constant(op.inputs[2]) is None or int(view.constant(op.inputs[2])) != 0):
        return None
    rows, width = view.variable_shape(table)
    output, ops = op.outputs[0], [op]
    consumer = view.sole_consumer(output)
    if consumer is not None and consumer.type == "Identity":  # embedding_lookup wraps the gather in an identity
        ops.append(consumer)
        output = consumer.outputs[0]
    sizes = f"{view.spell(rows, {f'{table}#0'})}, {view.spell(width, {f'{table}#1'})}"
    name = view.unique_attribute(layer_name(table).replace("/", "_"), f"keras.layers.Embedding({sizes}) on {table}")
    attribute = snake(name)
    constructor = f"keras.layers.Embedding({sizes}, name={name!r})"
    return Claim(ops, [op.inputs[1]], output, lambda args: f"self.{attribute}({args[0]})",
                 Conversion(view.location(op), f"embedding lookup ({table})", constructor),
                 LayerSpec(attribute, constructor, {table: "embeddings"}, name), attribute)


TWIN = Twin("embedding", match, priority=10)
