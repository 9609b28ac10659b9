"""Cells unrolled by `dynamic_rnn` → `keras.layers.LSTM` / `GRU`, or a `keras.layers.RNN` over a stack of cells.

Recognised by the recorded `tf.compat.v1.nn.dynamic_rnn` call: its ops (the
while loop included) are one cluster, and what the model_fn reads of its
result — the outputs (``return_sequences=True``), the last state's ``h`` (the
layer's output) or its ``c`` (``return_state=True``) — is the claim's output.
An `LSTMCell`/`BasicLSTMCell`/`GRUCell` becomes the Keras layer of that cell; a
`MultiRNNCell` of them runs its cells one after the other inside one loop, as
``keras.layers.RNN([cell_0, cell_1, …])`` (Keras' `StackedRNNCells`) does. A
`DropoutWrapper` that keeps everything (keep probabilities 1.0) is the cell it
wraps. With ``sequence_length`` TF1 gives zeros past each length and carries the
state through: the Keras layer gets the lengths as a mask, which carries the
state the same way — the outputs with ``zero_output_for_mask=True``, the last
state's ``h`` (Keras' last output, carried past the length when masked steps
do not output zeros) or ``c`` without it.
The cells' weights map through the parity engine's named transforms
(`lstm_kernel`, `lstm_bias`; `gru_kernel`, `gru_bias`): TF1 keeps one kernel
over ``[x, h]``, Keras a kernel and a recurrent kernel, so the port is at
rounding level (the verdict names the transforms). Initial states, time-major
inputs, dropping wrappers, peepholes, projections and clipping have no Keras
twin here and are left to the refusal.
"""
from __future__ import annotations

from dataclasses import dataclass

from migrate.port.graph import Claim, LayerSpec, snake
from migrate.port.records import Conversion
from migrate.port.registry import Twin

CELLS = {"LSTMCell": "LSTM", "BasicLSTMCell": "LSTM", "GRUCell": "GRU"}
UNSUPPORTED_CELL = ("_use_peepholes", "_cell_clip", "_num_proj", "_proj_clip")


@dataclass(frozen=True)
class CellPlan:
    """A TF1 cell's Keras twin: the layer class, its units, and its weights (paths relative to the RNN layer)."""

    layer: str
    units: int
    variables: list
    weights: dict
    extra: str
    """Constructor keywords the twin needs beyond units (``reset_after=False`` for TF1's GRU)."""

    @property
    def widths(self) -> set[str]:
        """Where `units` is read from in the TF1 graph (the kernels' output axis), for spelling it as a param."""
        return {f"{name}#1" for name in self.variables if name.endswith("/kernel")}


def _activation_ok(cell) -> bool:
    activation = getattr(cell, "_activation", None)
    return activation is None or getattr(activation, "__name__", "") == "tanh"


def cell_plan(cell, prefix: str = "", cell_path: str | None = None) -> CellPlan | None:
    """The Keras twin of `cell` (an LSTMCell/BasicLSTMCell/GRUCell with TF1's defaults), its weights under
    ``prefix + cell_path`` (``lstm_cell`` / ``gru_cell`` by default, as in a Keras LSTM / GRU layer)."""
    kind = type(cell).__name__
    if kind not in CELLS or any(getattr(cell, name, None) for name in UNSUPPORTED_CELL) or not _activation_ok(cell):
        return None
    variables = [variable.name.split(":")[0] for variable in cell.variables]
    if CELLS[kind] == "LSTM":
        kernel = next((name for name in variables if name.endswith("/kernel")), None)
        bias = next((name for name in variables if name.endswith("/bias")), None)
        if kernel is None or bias is None or float(getattr(cell, "_forget_bias", 1.0)) != 1.0:
            return None  # the registered lstm_bias folds TF1's default forget bias 1.0
        path = f"{prefix}{cell_path or 'lstm_cell'}"
        weights = {kernel: ([f"{path}/kernel", f"{path}/recurrent_kernel"], "lstm_kernel"), bias: (f"{path}/bias", "lstm_bias")}
        return CellPlan("LSTM", int(cell.output_size), variables, weights, "")
    gates = [name for name in variables if "/gates/" in name]
    candidate = [name for name in variables if "/candidate/" in name]
    if len(gates) != 2 or len(candidate) != 2:
        return None
    kernels = tuple(sorted(name for name in gates + candidate if name.endswith("/kernel")))[::-1]
    biases = tuple(sorted(name for name in gates + candidate if name.endswith("/bias")))[::-1]
    path = f"{prefix}{cell_path or 'gru_cell'}"
    weights = {kernels: ([f"{path}/kernel", f"{path}/recurrent_kernel"], "gru_kernel"), biases: (f"{path}/bias", "gru_bias")}
    return CellPlan("GRU", int(cell.output_size), variables, weights, ", reset_after=False")


def unwrapped(cell) -> list | None:
    """The cells `cell` runs one after the other at each step: a `MultiRNNCell`'s, each out of a `DropoutWrapper`
    that drops nothing (keep probabilities 1.0); None for a wrapper that drops (no Keras twin here)."""
    cells = list(cell._cells) if type(cell).__name__ == "MultiRNNCell" else [cell]  # noqa: SLF001
    plain = []
    for member in cells:
        if type(member).__name__ == "DropoutWrapper":
            keeps = [getattr(member, name, None) for name in ("_input_keep_prob", "_output_keep_prob", "_state_keep_prob")]
            if not all(isinstance(keep, (int, float)) and float(keep) == 1.0 for keep in keeps):
                return None
            member = member.cell
        plain.append(member)
    return plain


def _last_state(state):
    """The final state of the last (or only) cell: an LSTM's ``(c, h)`` tuple, a GRU's tensor; None otherwise."""
    if isinstance(state, tuple) and not hasattr(state, "h"):
        return _last_state(state[-1]) if state else None
    return state


def _consumed(view, result, stacked: bool):
    outputs, state = result
    candidates = {"sequences": outputs}
    last = _last_state(state)
    if hasattr(last, "h") and hasattr(last, "c"):
        candidates.update(h=last.h, **({} if stacked else {"c": last.c}))
    elif hasattr(last, "op"):
        candidates.update(h=last)
    used = {key: tensor for key, tensor in candidates.items()
            if tensor.name in view.targets or view.consumers(tensor)}
    if len(used) == 2 and "h" in used and "sequences" in used:
        return None  # both: the layer would be called twice; left to the refusal
    return next(iter(used.items())) if len(used) == 1 else None


def plain_call(call, lengths: bool = False) -> bool:
    """The RNN call has no initial states, no time-major inputs and (unless `lengths`) no sequence lengths."""
    arguments = call.arguments
    return (lengths or arguments.get("sequence_length") is None) and not any(
        arguments.get(name) is not None for name in ("initial_state", "initial_state_fw", "initial_state_bw")) \
        and not arguments.get("time_major")


def call_cluster(view, call, inputs: list, extra: tuple = ()) -> list:
    """The ops the recorded call made (its while loops included) and `extra`, with what only feeds them."""
    ops = [view.needed[name] for name in view.needed if view.needed[name]._id in call.op_ids]  # noqa: SLF001
    return view.absorb([*ops, *extra], inputs)


def layer_name(call, default: str) -> str:
    scope = call.arguments.get("scope")
    return (scope if isinstance(scope, str) else default).replace("/", "_")


def _stacked_constructor(plans: list[CellPlan], units: list[str], flags: str, layer: str) -> str:
    cells = ", ".join(f"keras.layers.{plan.layer}Cell({size}{plan.extra}, name='cell_{index}')"
                      for index, (plan, size) in enumerate(zip(plans, units)))
    return f"keras.layers.RNN([{cells}]{flags}, name={layer!r})"


def _plans(view, cells: list) -> tuple[list[CellPlan], list[str]] | None:
    """One plan per cell (a stack's weights under ``stacked_rnn_cells/cell_<i>``) and its units as written."""
    stacked = len(cells) > 1
    plans: list[CellPlan] = []
    for index, cell in enumerate(cells):
        plan = cell_plan(cell, "stacked_rnn_cells/" if stacked else "", f"cell_{index}" if stacked else None)
        if plan is None:
            return None
        plans.append(plan)
    if len({plan.layer for plan in plans}) != 1:
        return None
    return plans, [view.spell(plan.units, plan.widths) for plan in plans]


def planned_layer(view, cells: list, flags: str, layer: str) -> tuple[str, dict, list] | None:
    """The Keras layer running `cells` (one cell: its LSTM/GRU layer; a stack: `keras.layers.RNN` over its cells):
    (constructor, weights, TF1 variables), or None when a cell has no twin."""
    planned = _plans(view, cells)
    if planned is None:
        return None
    plans, units = planned
    constructor = (_stacked_constructor(plans, units, flags, layer) if len(plans) > 1 else
                   f"keras.layers.{plans[0].layer}({units[0]}{flags}{plans[0].extra}, name={layer!r})")
    weights = {name: weight for plan in plans for name, weight in plan.weights.items()}
    return constructor, weights, [name for plan in plans for name in plan.variables]


def match(op, view):
    call = view.call_of(op, "tf.compat.v1.nn.dynamic_rnn")
    if call is None or not plain_call(call, lengths=True):
        return None
    cells = unwrapped(call.arguments["cell"])
    if not cells:
        return None
    consumed = _consumed(view, call.result, len(cells) > 1)
    lengths = call.arguments.get("sequence_length")
    if consumed is None:
        return None
    part, output = consumed
    inputs = [call.arguments["inputs"], *([lengths] if lengths is not None else [])]
    layer = layer_name(call, "rnn")
    flags = {"sequences": ", return_sequences=True", "c": ", return_state=True", "h": ""}[part]
    flags += ", zero_output_for_mask=True" if lengths is not None and part == "sequences" else ""
    planned = planned_layer(view, cells, flags, layer)
    if planned is None:
        return None
    constructor, weights, variables = planned
    attribute = snake(layer)
    pick = "[2]" if part == "c" else ""

    def render(args: list[str]) -> str:
        mask = f", mask=tf.sequence_mask({args[1]}, maxlen=tf.shape({args[0]})[1])" if lengths is not None else ""
        return f"self.{attribute}({args[0]}{mask}){pick}"

    kinds = " + ".join(type(cell).__name__ for cell in cells)
    construct = f"{kinds} under dynamic_rnn{' with sequence lengths' if lengths is not None else ''}"
    return Claim(call_cluster(view, call, inputs), inputs, output, render,
                 Conversion(call.where or view.location(op), f"{construct} ({', '.join(variables)})", constructor),
                 LayerSpec(attribute, constructor, weights, layer), attribute)


TWIN = Twin("rnn", match, priority=1)
