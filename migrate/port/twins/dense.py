"""`get_variable` + `tf.matmul` (+ bias add + activation), and `tf.layers.dense`, → `keras.layers.Dense`.

On a rank-3+ tensor `tf.layers.dense` is tensordot — a reshape to rank 2, the
matmul, a reshape back to the input's leading dimensions, then the bias add
— and is written ``tf.reshape(self.dense(tf.reshape(x, [-1, k])),
tf.concat([tf.shape(x)[:-1], [units]], axis=0))``: the same matmul, the bias
and activation on the same values (element by element, before the reshape
instead of after), the bias the layer's own, and the output's static shape
read from the input's as tensordot's `set_shape` does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from migrate.port.fusion import bias_and_activation, bias_initializer, keyword_arguments, layer_name
from migrate.port.graph import Claim, LayerSpec, snake
from migrate.port.records import Conversion
from migrate.port.registry import Twin


def match(op, view):
    if op.type in ("Shape", "Reshape"):  # where tensordot starts (its shape read, or its reshape of a static shape)
        return _tensordot_from(op, view)
    kernel = _kernel(op, view)
    return _claim(op, view, kernel, None, bias_and_activation(view, op.outputs[0], view.variable_shape(kernel)[1])) \
        if kernel is not None else None


def _kernel(op, view) -> str | None:
    """The 2-D kernel variable a plain matmul multiplies by, or None."""
    if op.type != "MatMul" or op.get_attr("transpose_a") or op.get_attr("transpose_b"):
        return None
    kernel = view.variable(op.inputs[1])
    if kernel is None or len(view.variable_shape(kernel)) != 2 or view.variable(op.inputs[0]) is not None:
        return None
    return kernel


def _claim(op, view, kernel: str, around: Tensordot | None, tail) -> Claim:
    units = view.variable_shape(kernel)[1]
    hint = layer_name(kernel).replace("/", "_")
    arguments = keyword_arguments(activation=repr(tail.activation) if tail.activation else None,
                                  use_bias="False" if tail.bias is None else None, bias_initializer=bias_initializer(view, tail.bias))
    configuration = f"keras.layers.Dense({view.spell(units, {f'{kernel}#1'})}, {arguments}) on {kernel}"
    name = view.unique_attribute(hint, configuration)
    constructor = f"keras.layers.Dense({view.spell(units, {f'{kernel}#1'})}, {arguments}, name={name!r})".replace(", , ", ", ")
    weights = {kernel: "kernel", **({tail.bias: "bias"} if tail.bias else {})}
    attribute = snake(name)
    construct = ("tensordot" if around else "matmul") + (" + bias add" if tail.bias else "") \
        + (f" + {tail.activation}" if tail.activation else "")
    conversion = Conversion(view.location(op), f"{construct} ({', '.join(weights)})", constructor)
    layer = LayerSpec(attribute, constructor, weights, name)
    if around is None:
        return Claim([op, *tail.ops], [op.inputs[0]], tail.output, lambda args: f"self.{attribute}({args[0]})",
                     conversion, layer, attribute)
    return Claim([*around.ops, op, around.back, *tail.ops], [around.source], tail.output,
                 lambda args: f"tf.reshape(self.{attribute}(tf.reshape({args[0]}, [-1, tf.shape({args[0]})[-1]])), "
                              f"tf.concat([tf.shape({args[0]})[:-1], [self.{attribute}.units]], axis=0))",
                 conversion, layer, attribute)


def _tensordot_from(op, view) -> Claim | None:
    """The dense claim of a tensordot whose first op is `op` (claimed there, so its shape ops are written by none),
    when the layer's bias follows the reshape back; None otherwise (a matmul without it is claimed as a matmul)."""
    source = op.inputs[0]
    for consumer in view.consumers(source):
        flat = view.sole_consumer(consumer.outputs[0]) if consumer.type == "Transpose" else consumer
        matmul = view.sole_consumer(flat.outputs[0]) if flat is not None and flat.type == "Reshape" else None
        kernel = _kernel(matmul, view) if matmul is not None else None
        if kernel is None:
            continue
        width, units = view.variable_shape(kernel)
        around = _tensordot(view, matmul, width, units)
        if around is None or min(around.ops, key=lambda member: member._id) is not op:  # noqa: SLF001 - creation order
            continue
        tail = bias_and_activation(view, around.back.outputs[0], units)
        if tail.bias is not None:
            return _claim(matmul, view, kernel, around, tail)
    return None


@dataclass(frozen=True)
class Tensordot:
    """The ops of a tensordot around a matmul: its source tensor, the reshape back, and the ops computing the shapes."""

    source: Any
    back: Any
    ops: list


SHAPE_TYPES = frozenset({"Shape", "GatherV2", "Prod", "Pack", "ConcatV2"})
"""The ops tensordot computes its two shapes with, from `tf.shape` of its source."""


def _tensordot(view, matmul, width: int, units: int) -> Tensordot | None:
    """The tensordot `matmul` is the middle of — a reshape of a rank-3+ tensor to [-1, width] before it, a reshape
    back to that tensor's leading dimensions + [units] after it, all their shapes read from it — or None."""
    back, flat = view.sole_consumer(matmul.outputs[0]), matmul.inputs[0].op
    if back is None or back.type != "Reshape" or flat.type != "Reshape":
        return None
    ops, source = [flat], flat.inputs[0]
    perm = view.constant(source.op.inputs[1]) if source.op.type == "Transpose" else None
    if perm is not None and perm.tolist() == list(range(source.shape.rank or 0)):  # tensordot's identity transpose
        ops.append(source.op)
        source = source.op.inputs[0]
    rank = source.shape.rank
    if not rank or rank < 3 or source.shape[-1] != width or back.outputs[0].shape.rank != rank \
            or back.outputs[0].shape[-1] != units or not _leading_dimensions(view, back.inputs[1], source, units):
        return None
    frontier, seen = [flat.inputs[1].op, back.inputs[1].op], set()
    while frontier:
        current = frontier.pop()
        if current.name in seen or view.constant(current.outputs[0]) is not None:
            continue
        if current.type not in SHAPE_TYPES or (current.type == "Shape" and current.inputs[0] is not source):
            return None
        seen.add(current.name)
        ops.append(current)
        frontier += [tensor.op for tensor in current.inputs] if current.type != "Shape" else []
    inside = {member.name for member in ops} | {matmul.name, back.name}
    if any(consumer.name not in inside for member in ops for output in member.outputs
           for consumer in view.consumers(output)):
        return None
    return Tensordot(source, back, ops)


def _leading_dimensions(view, shape, source, units: int) -> bool:
    """Whether `shape` is tensordot's ``concat([gather(tf.shape(source), [0 … rank-2]), [units]])``, or that shape
    as a constant (a source of static shape)."""
    constant = view.constant(shape)
    if constant is not None:
        return source.shape.is_fully_defined() and constant.tolist() == [*source.shape.as_list()[:-1], units]
    if shape.op.type != "ConcatV2" or len(shape.op.inputs) != 3:
        return False
    leading, last = shape.op.inputs[0], view.constant(shape.op.inputs[1])
    if leading.op.type != "GatherV2" or last is None or last.tolist() != [units]:
        return False
    shape_of, indices = leading.op.inputs[0], view.constant(leading.op.inputs[1])
    return shape_of.op.type == "Shape" and shape_of.op.inputs[0] is source and indices is not None \
        and indices.tolist() == list(range(source.shape.rank - 1))


TWIN = Twin("dense", match, priority=10)
