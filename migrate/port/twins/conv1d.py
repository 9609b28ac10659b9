"""`tf.layers.conv1d` / `tf.nn.conv1d` on a variable kernel (+ bias add + activation) → `keras.layers.Conv1D`.

TF builds a 1-D convolution as a 2-D one: the input gets a unit height
(``ExpandDims(x, 1)``), the ``[width, in, out]`` kernel a unit leading axis
(``ExpandDims(kernel, 0)``), and the output loses the height again
(``Squeeze([1])``); Keras' `Conv1D` makes the same three ops. Channels-last
only; causal padding (an explicit pad before) is left to the refusal.
"""
from __future__ import annotations

from migrate.port.fusion import bias_and_activation, bias_initializer, keyword_arguments, layer_name
from migrate.port.graph import Claim, LayerSpec, snake
from migrate.port.records import Conversion
from migrate.port.registry import Twin


def _expanded(view, tensor, axis: int):
    """The ExpandDims op that made `tensor` by inserting `axis` (TF writes -3 and -4: counted from the end), or None."""
    op = tensor.op
    if op.type != "ExpandDims":
        return None
    inserted, rank = view.constant(op.inputs[1]), tensor.shape.rank
    return op if inserted is not None and rank is not None and int(inserted) % rank == axis else None


def match(op, view):
    """Claims from the input's ExpandDims (the idiom's first op) to the squeeze and what follows it."""
    if _expanded(view, op.outputs[0], 1) is None:
        return None
    conv = view.sole_consumer(op.outputs[0])
    if conv is None or conv.type != "Conv2D" or conv.inputs[0] is not op.outputs[0] \
            or conv.get_attr("data_format").decode() != "NHWC":
        return None
    kernel_expand = _expanded(view, conv.inputs[1], 0)
    kernel = view.variable(kernel_expand.inputs[0]) if kernel_expand is not None else None
    squeeze = view.sole_consumer(conv.outputs[0])
    if kernel is None or len(view.variable_shape(kernel)) != 3 or squeeze is None or squeeze.type != "Squeeze" \
            or [dim % 4 for dim in squeeze.get_attr("squeeze_dims")] != [1]:
        return None
    padding = conv.get_attr("padding").decode()
    if padding not in ("VALID", "SAME"):
        return None
    width, _, filters = view.variable_shape(kernel)
    stride, dilation = conv.get_attr("strides")[2], conv.get_attr("dilations")[2]
    tail = bias_and_activation(view, squeeze.outputs[0], filters)
    arguments = keyword_arguments(
        strides=repr(stride) if stride != 1 else None, padding=repr(padding.lower()),
        dilation_rate=repr(dilation) if dilation != 1 else None,
        activation=repr(tail.activation) if tail.activation else None,
        use_bias="False" if tail.bias is None else None, bias_initializer=bias_initializer(view, tail.bias))
    spelled = view.spell(filters, {f"{kernel}#2"})
    name = view.unique_attribute(layer_name(kernel).replace("/", "_"),
                                 f"keras.layers.Conv1D({spelled}, {width}, {arguments}) on {kernel}")
    constructor = f"keras.layers.Conv1D({spelled}, {width}, {arguments}, name={name!r})"
    weights = {kernel: "kernel", **({tail.bias: "bias"} if tail.bias else {})}
    attribute = snake(name)
    construct = "conv1d" + (" + bias add" if tail.bias else "") + (f" + {tail.activation}" if tail.activation else "")
    return Claim([op, kernel_expand, conv, squeeze, *tail.ops], [op.inputs[0]], tail.output,
                 lambda args: f"self.{attribute}({args[0]})",
                 Conversion(view.location(conv), f"{construct} ({', '.join(weights)})", constructor),
                 LayerSpec(attribute, constructor, weights, name), attribute)


TWIN = Twin("conv1d", match, priority=9)
