"""`get_variable` + `tf.matmul` (+ bias add + activation), and `tf.layers.dense`, → `keras.layers.Dense`."""
from __future__ import annotations

from migrate.port.fusion import bias_and_activation, bias_initializer, keyword_arguments, layer_name
from migrate.port.graph import Claim, LayerSpec, snake
from migrate.port.records import Conversion
from migrate.port.registry import Twin


def match(op, view):
    if op.type != "MatMul" or op.get_attr("transpose_a") or op.get_attr("transpose_b"):
        return None
    kernel = view.variable(op.inputs[1])
    if kernel is None or len(view.variable_shape(kernel)) != 2 or view.variable(op.inputs[0]) is not None:
        return None
    units = view.variable_shape(kernel)[1]
    tail = bias_and_activation(view, op.outputs[0], units)
    hint = layer_name(kernel).replace("/", "_")
    arguments = keyword_arguments(activation=repr(tail.activation) if tail.activation else None,
                                  use_bias="False" if tail.bias is None else None, bias_initializer=bias_initializer(view, tail.bias))
    configuration = f"keras.layers.Dense({view.spell(units, {f'{kernel}#1'})}, {arguments}) on {kernel}"
    name = view.unique_attribute(hint, configuration)
    constructor = f"keras.layers.Dense({view.spell(units, {f'{kernel}#1'})}, {arguments}, name={name!r})".replace(", , ", ", ")
    weights = {kernel: "kernel", **({tail.bias: "bias"} if tail.bias else {})}
    attribute = snake(name)
    construct = "matmul" + (" + bias add" if tail.bias else "") + (f" + {tail.activation}" if tail.activation else "")
    return Claim([op, *tail.ops], [op.inputs[0]], tail.output, lambda args: f"self.{attribute}({args[0]})",
                 Conversion(view.location(op), f"{construct} ({', '.join(weights)})", constructor),
                 LayerSpec(attribute, constructor, weights, name), attribute)


TWIN = Twin("dense", match, priority=10)
