"""TensorFlow ops kept as they are in the generated `call`: casts, reshapes, elementwise math, reductions, ….

An op no twin claims is written as the TensorFlow 2 call that makes the same
op (`tf.reshape`, `x / y`, `tf.nn.softmax`, …), so it computes the same
values and gradients. `render(op, args, view)` is the expression for the op's
first output from its inputs' expressions; None when the op is not known here
(the porter then refuses it, naming the op and its file:line).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

Render = Callable[[Any, list[str], Any], str]


def _attr(op, name: str, default: Any = None) -> Any:
    try:
        return op.get_attr(name)
    except ValueError:
        return default


def _dtype(op, name: str) -> str:
    return f"tf.{_attr(op, name).name}"


def _binary(symbol: str) -> Render:
    return lambda op, args, view: f"{args[0]} {symbol} {args[1]}"


def _call(function: str) -> Render:
    return lambda op, args, view: f"{function}({', '.join(args)})"


def _reduce(function: str) -> Render:
    return lambda op, args, view: f"{function}({args[0]}, axis={args[1]}, keepdims={bool(_attr(op, 'keep_dims', False))})"


def _argmax(function: str) -> Render:
    return lambda op, args, view: f"{function}({args[0]}, axis={args[1]}, output_type={_dtype(op, 'output_type')})"


def _strided_slice(op, args, view) -> str:
    masks = ", ".join(f"{name}={_attr(op, name)}" for name in
                      ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask") if _attr(op, name))
    return f"tf.strided_slice({', '.join(args)}{', ' + masks if masks else ''})"


def _matmul(op, args, view) -> str:
    flags = [f"{name}=True" for name in ("transpose_a", "transpose_b", "adj_x", "adj_y") if _attr(op, name)]
    flags = [flag.replace("adj_x", "adjoint_a").replace("adj_y", "adjoint_b") for flag in flags]
    return f"tf.matmul({', '.join([*args[:2], *flags])})"


def _gather(op, args, view) -> str:
    """`tf.gather`; dimensions picked from a `tf.shape` by constant indices are written as slices of it, which
    shape inference reads as that tensor's static dimensions — so a reshape to them keeps the static shape TF1's
    tensordot and dense layers give their outputs with `set_shape` (a served output keeps its (None, 11, 20))."""
    indices = view.constant(op.inputs[1]) if op.inputs[0].op.type == "Shape" else None
    if indices is None or view.constant(op.inputs[2]) != 0 or _attr(op, "batch_dims", 0) or indices.ndim > 1 \
            or (indices < 0).any() or indices.size == 0:
        return f"tf.gather({args[0]}, {args[1]}, axis={args[2]}, batch_dims={_attr(op, 'batch_dims', 0)})"
    if indices.ndim == 0:
        return f"{args[0]}[{int(indices)}]"
    first = int(indices[0])
    if indices.tolist() == list(range(first, first + indices.size)):
        return f"{args[0]}[{first}:{first + indices.size}]"
    return f"tf.stack([{', '.join(f'{args[0]}[{int(index)}]' for index in indices)}], axis=0)"


RENDERERS: dict[str, Render] = {
    "Identity": lambda op, args, view: args[0],
    "StopGradient": _call("tf.stop_gradient"),
    "Cast": lambda op, args, view: f"tf.cast({args[0]}, {_dtype(op, 'DstT')})",
    "RealDiv": _binary("/"), "Mul": _binary("*"), "AddV2": _binary("+"), "Add": _binary("+"), "Sub": _binary("-"),
    "FloorDiv": _binary("//"), "FloorMod": _binary("%"),
    "Neg": lambda op, args, view: f"-{args[0]}",
    "DivNoNan": _call("tf.math.divide_no_nan"), "Maximum": _call("tf.maximum"), "Minimum": _call("tf.minimum"),
    "Pow": _call("tf.pow"), "SquaredDifference": _call("tf.math.squared_difference"),
    "Square": _call("tf.square"), "Sqrt": _call("tf.sqrt"), "Rsqrt": _call("tf.math.rsqrt"), "Exp": _call("tf.exp"),
    "Log": _call("tf.math.log"), "Log1p": _call("tf.math.log1p"), "Abs": _call("tf.abs"), "Sign": _call("tf.sign"),
    "Reciprocal": _call("tf.math.reciprocal"), "Floor": _call("tf.floor"), "Round": _call("tf.round"),
    "Relu": _call("tf.nn.relu"), "Relu6": _call("tf.nn.relu6"), "Elu": _call("tf.nn.elu"), "Selu": _call("tf.nn.selu"),
    "Sigmoid": _call("tf.sigmoid"), "Tanh": _call("tf.tanh"), "Softplus": _call("tf.nn.softplus"),
    "Softsign": _call("tf.nn.softsign"), "Softmax": _call("tf.nn.softmax"), "LogSoftmax": _call("tf.nn.log_softmax"),
    "LeakyRelu": lambda op, args, view: f"tf.nn.leaky_relu({args[0]}, alpha={_attr(op, 'alpha')!r})",
    "Reshape": _call("tf.reshape"), "Transpose": _call("tf.transpose"), "Tile": _call("tf.tile"),
    "Squeeze": lambda op, args, view: f"tf.squeeze({args[0]}, axis={list(_attr(op, 'squeeze_dims') or []) or None})",
    "ExpandDims": _call("tf.expand_dims"),
    "ConcatV2": lambda op, args, view: f"tf.concat([{', '.join(args[:-1])}], axis={args[-1]})",
    "Pack": lambda op, args, view: f"tf.stack([{', '.join(args)}], axis={_attr(op, 'axis')})",
    "StridedSlice": _strided_slice, "Slice": _call("tf.slice"),
    "GatherV2": _gather,
    "Shape": lambda op, args, view: f"tf.shape({args[0]}, out_type={_dtype(op, 'out_type')})",
    "Sum": _reduce("tf.reduce_sum"), "Mean": _reduce("tf.reduce_mean"), "Max": _reduce("tf.reduce_max"),
    "Min": _reduce("tf.reduce_min"), "Prod": _reduce("tf.reduce_prod"),
    "ArgMax": _argmax("tf.argmax"), "ArgMin": _argmax("tf.argmin"),
    "MatMul": _matmul, "BatchMatMulV2": _matmul, "BatchMatMulV3": _matmul,
    "BiasAdd": _call("tf.nn.bias_add"),
    "SparseSoftmaxCrossEntropyWithLogits":
        lambda op, args, view: f"tf.nn.sparse_softmax_cross_entropy_with_logits(labels={args[1]}, logits={args[0]})",
    "SoftmaxCrossEntropyWithLogits":
        lambda op, args, view: f"tf.nn.softmax_cross_entropy_with_logits(labels={args[1]}, logits={args[0]})",
    "L2Loss": _call("tf.nn.l2_loss"), "AddN": lambda op, args, view: f"tf.add_n([{', '.join(args)}])",
    "ZerosLike": _call("tf.zeros_like"), "OnesLike": _call("tf.ones_like"),
    "SelectV2": _call("tf.where"), "Select": _call("tf.where"),
    "Equal": _call("tf.equal"), "NotEqual": _call("tf.not_equal"), "Greater": _call("tf.greater"),
    "GreaterEqual": _call("tf.greater_equal"), "Less": _call("tf.less"), "LessEqual": _call("tf.less_equal"),
    "LogicalAnd": _call("tf.logical_and"), "LogicalOr": _call("tf.logical_or"), "LogicalNot": _call("tf.logical_not"),
    "OneHot": lambda op, args, view: f"tf.one_hot({args[0]}, {args[1]}, {args[2]}, {args[3]}, axis={_attr(op, 'axis')})",
    "Fill": _call("tf.fill"), "Range": _call("tf.range"), "Size": _call("tf.size"),
    "AsString": _call("tf.strings.as_string"),
    "Pad": _call("tf.pad"), "PadV2": _call("tf.pad"),
}
MULTI_OUTPUT_FIRST_ONLY = frozenset({"SparseSoftmaxCrossEntropyWithLogits", "SoftmaxCrossEntropyWithLogits"})
"""Ops whose TF2 call returns their first output only."""
