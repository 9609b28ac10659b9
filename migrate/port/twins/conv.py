"""`tf.nn.conv2d`/`conv3d` on a variable kernel (+ bias add + activation), and `tf.layers.conv*`, → Keras Conv layers."""
from __future__ import annotations

from migrate.port.fusion import bias_and_activation, bias_initializer, keyword_arguments, layer_name
from migrate.port.graph import Claim, LayerSpec, snake
from migrate.port.records import Conversion
from migrate.port.registry import Twin

LAYERS = {"Conv2D": "Conv2D", "Conv3D": "Conv3D"}


def _spatial(values, data_format: str) -> tuple:
    values = list(values)
    return tuple(values[2:]) if data_format.startswith("NC") else tuple(values[1:-1])


def match(op, view):
    if op.type not in LAYERS:
        return None
    kernel = view.variable(op.inputs[1])
    if kernel is None or view.variable(op.inputs[0]) is not None:
        return None
    padding = op.get_attr("padding").decode()
    if padding not in ("VALID", "SAME"):
        return None
    data_format = op.get_attr("data_format").decode()
    shape = view.variable_shape(kernel)
    filters = shape[-1]
    strides, dilations = _spatial(op.get_attr("strides"), data_format), _spatial(op.get_attr("dilations"), data_format)
    tail = bias_and_activation(view, op.outputs[0], filters)
    hint = layer_name(kernel).replace("/", "_")
    size = tuple(shape[:-2])
    arguments = keyword_arguments(
        strides=repr(strides) if set(strides) != {1} else None, padding=repr(padding.lower()),
        data_format='"channels_first"' if data_format.startswith("NC") else None,
        dilation_rate=repr(dilations) if set(dilations) != {1} else None,
        activation=repr(tail.activation) if tail.activation else None,
        use_bias="False" if tail.bias is None else None, bias_initializer=bias_initializer(view, tail.bias))
    width = view.spell(filters, {f'{kernel}#{len(shape) - 1}'})
    name = view.unique_attribute(hint, f"keras.layers.{LAYERS[op.type]}({width}, {size!r}, {arguments}) on {kernel}")
    constructor = f"keras.layers.{LAYERS[op.type]}({width}, {size!r}, {arguments}, name={name!r})"
    weights = {kernel: "kernel", **({tail.bias: "bias"} if tail.bias else {})}
    attribute = snake(name)
    construct = f"{op.type}" + (" + bias add" if tail.bias else "") + (f" + {tail.activation}" if tail.activation else "")
    return Claim([op, *tail.ops], [op.inputs[0]], tail.output, lambda args: f"self.{attribute}({args[0]})",
                 Conversion(view.location(op), f"{construct} ({', '.join(weights)})", constructor),
                 LayerSpec(attribute, constructor, weights, name), attribute)


TWIN = Twin("conv", match, priority=10)
