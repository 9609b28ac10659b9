"""From a `GraphView` to generated code: one statement per claimed cluster, in creation order.

Each needed op is claimed by the first twin that matches it (`registry.twins`)
or kept as a TensorFlow op (`ops.RENDERERS`); constants become literals,
inputs the expressions the caller names. What cannot be written (an unknown
op, a variable read outside a layer, a large constant) is a `Problem` with
the op's file:line.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from migrate.port.graph import MAX_LITERAL_SIZE, VARIABLE_TYPES, Claim, GraphView, LayerSpec, python_literal, snake
from migrate.port.ops import MULTI_OUTPUT_FIRST_ONLY, RENDERERS
from migrate.port.records import Conversion, Problem

RAW_HOLDER = "tf1_variables"
"""The attribute of the generated layer holding the TF1 variables raw ops read."""
SKIPPED_TYPES = frozenset({"Const", "NoOp", "Placeholder", *VARIABLE_TYPES})
REFUSED_TYPES = {
    "PyFunc": "tf.py_func", "PyFuncStateless": "tf.py_func", "EagerPyFunc": "tf.py_function",
    "While": "a tf.while_loop", "StatelessWhile": "a tf.while_loop", "If": "a tf.cond", "StatelessIf": "a tf.cond",
    "Switch": "a tf.cond (v1 control flow)", "Merge": "a tf.cond (v1 control flow)", "Enter": "a tf.while_loop",
}
REFUSED_ADVICE = {
    "tf.py_func": "replace the Python function by TensorFlow ops (its gradient and numerics cannot be carried over)",
    "tf.py_function": "replace the Python function by TensorFlow ops",
}


class Names:
    """Unique Python names for the generated locals and layer attributes."""

    def __init__(self, taken: set[str] | None = None) -> None:
        self.taken = set(taken or ()) | {"self", "features", "labels", "training", "params", "outputs", "tf", "keras"}
        self.layers: dict[str, str] = {}
        self.raw_variables: dict[str, tuple[Any, ...]] = {}
        """TF1 variables read by ops no twin claimed: (shape, constant initial value or None), for `TF1Variables`."""
        """Layer attributes given so far (`GraphView.unique_attribute`)."""

    def fresh(self, hint: str) -> str:
        base = snake(hint)
        name, index = base, 1
        while name in self.taken:
            index += 1
            name = f"{base}_{index}"
        self.taken.add(name)
        return name


@dataclass
class Program:
    statements: list[str] = field(default_factory=list)
    layers: list[LayerSpec] = field(default_factory=list)
    conversions: list[Conversion] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    expressions: dict[str, str] = field(default_factory=dict)


def _valid(claim: Claim, view: GraphView) -> bool:
    inside = {op.name for op in claim.ops}
    for op in claim.ops:
        for output in op.outputs:
            if output is claim.output:
                continue
            if output.name in view.targets or any(consumer.name not in inside for consumer in view.consumers(output)):
                return False
    return True


def _generic(op, view: GraphView) -> Claim | None:
    render = RENDERERS.get(op.type)
    if render is None:
        return None
    if len(op.outputs) > 1 and op.type not in MULTI_OUTPUT_FIRST_ONLY:
        return None
    if op.type in MULTI_OUTPUT_FIRST_ONLY and any(view.consumers(output) for output in op.outputs[1:]):
        return None
    kind = "op"
    return Claim([op], list(op.inputs), op.outputs[0], lambda args: render(op, args, view),
                 Conversion(view.location(op), op.type, render(op, [snake(t.op.name) for t in op.inputs], view), kind),
                 None, snake(op.name))


def build_program(view: GraphView, twins: list, names: Names) -> Program:
    """Statements computing every target of `view` from its known tensors."""
    program = Program(expressions=dict(view.known))
    view.layer_registry = names.layers
    view.names = names
    claimed: set[str] = set()
    failed: set[str] = set()
    for op in view.order:
        if op.name in claimed or op.type in SKIPPED_TYPES or all(o.name in program.expressions for o in op.outputs):
            continue
        if view.variable(op.outputs[0]) is not None if op.outputs else False:
            continue
        if op.outputs and op.outputs[0].name not in view.targets and len(op.outputs) == 1 \
                and view.constant(op.outputs[0]) is not None:
            continue
        if op.type in REFUSED_TYPES:
            construct = REFUSED_TYPES[op.type]
            program.problems.append(Problem(view.location(op), f"{construct} ({op.type} op {op.name}) cannot be ported",
                                            REFUSED_ADVICE.get(construct, "rewrite it without graph control flow, "
                                                               "or port this part by hand")))
            claimed.add(op.name)
            failed.update(output.name for output in op.outputs)
            continue
        claim = None
        view.focus(op)
        for twin in twins:
            candidate = twin.match(op, view)
            if candidate is not None and _valid(candidate, view):
                claim = candidate
                break
        if claim is None:
            claim = _generic(op, view)
        if claim is None:
            program.problems.append(Problem(view.location(op), f"no twin for the {op.type} op {op.name}",
                                            "rewrite it with ops `migrate port` knows (see PORT.md), or port this part by hand"))
            claimed.add(op.name)
            failed.update(output.name for output in op.outputs)
            continue
        args = []
        for tensor in claim.inputs:
            if tensor.name in failed:
                break
            expression = _expression(tensor, view, program)
            if expression is None:
                break
            args.append(expression)
        claimed.update(o.name for o in claim.ops)
        if len(args) != len(claim.inputs):
            failed.update(output.name for member in claim.ops for output in member.outputs)
            continue
        rendered = claim.render(args)
        lines, expression = rendered if isinstance(rendered, tuple) else ([], rendered)
        if claim.layer is not None:
            program.layers.append(claim.layer)
        program.conversions.append(claim.conversion)
        if claim.ops[0].type == "Identity" and len(claim.ops) == 1:
            program.expressions[claim.output.name] = expression
            continue
        name = names.fresh(claim.name_hint or claim.ops[-1].name)
        program.statements += [*lines, f"{name} = {expression}"]
        program.expressions[claim.output.name] = name
    return program


def _param_holding(value: np.ndarray, params: dict) -> str | None:
    """The one param whose array is this constant's value (``tf.constant(params["word_vector"])``: pretrained
    embeddings given through params), or None."""
    keys = [key for key, given in params.items() if isinstance(given, (np.ndarray, list)) and np.shape(given) == value.shape
            and np.array_equal(np.asarray(given).astype(value.dtype), value)]
    return keys[0] if len(keys) == 1 else None


def _expression(tensor, view: GraphView, program: Program) -> str | None:
    if tensor.name in program.expressions:
        return program.expressions[tensor.name]
    variable = view.variable(tensor)
    if variable is not None:
        dtype = tensor.dtype.base_dtype
        if not dtype.is_floating or variable in ("global_step",) or view.names is None:
            program.problems.append(Problem(view.location(tensor.op), f"the variable {variable} ({dtype.name}) is read "
                                            "outside a recognised layer", "use it through a layer (tf.layers / matmul or "
                                            "conv on get_variable), or port this part by hand"))
            return None
        if variable not in view.names.raw_variables:
            view.names.raw_variables[variable] = (tuple(view.variable_shape(variable)), view.initial_constant(variable))
            program.conversions.append(Conversion(view.location(tensor.op), f"the variable {variable}, read by raw ops",
                                                  f"self.{RAW_HOLDER}.tf1[{variable!r}] (a weight of TF1Variables)", "raw"))
        return f"self.{RAW_HOLDER}.tf1[{variable!r}]"
    value = view.constant(tensor)
    if value is not None:
        held = _param_holding(value, view.params) if value.size > MAX_LITERAL_SIZE else None
        if held is not None:  # made once from the params, in __init__
            constructor = f"tf.constant(params[{held!r}], tf.{value.dtype.name})"
            attribute = view.unique_attribute(snake(held), constructor)
            program.layers.append(LayerSpec(attribute, constructor))
            program.conversions.append(Conversion(view.location(tensor.op), f"a constant of {value.size} values "
                                                  f"({tensor.op.name}), params[{held!r}]", constructor, "op"))
            return f"self.{attribute}"
        if value.size > MAX_LITERAL_SIZE:
            program.problems.append(Problem(view.location(tensor.op), f"a constant of {value.size} values ({tensor.op.name})",
                                            "make it a variable or compute it from a small constant"))
            return None
        if view.spell_floats and value.ndim == 0 and value.dtype.kind == "f":
            number = float(python_literal(value))
            spelled = view.spell(number)
            if spelled.startswith("params[") or not number.is_integer() or number in (0.0, 1.0):
                return spelled
            return view.spell(int(number)) if view.spell(int(number)).startswith("params[") else spelled
        return python_literal(value)
    program.problems.append(Problem(view.location(tensor.op), f"{tensor.name} is not computed from the inputs",
                                    "this is a bug of migrate port: report it with the model_fn"))
    return None
