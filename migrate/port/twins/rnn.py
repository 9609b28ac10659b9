"""An `LSTMCell`/`BasicLSTMCell`/`GRUCell` unrolled by `dynamic_rnn` → `keras.layers.LSTM` / `GRU`.

Recognised by the recorded `tf.compat.v1.nn.dynamic_rnn` call: its ops (the
while loop included) are one cluster, and what the model_fn reads of its
result — the outputs (``return_sequences=True``), the last state's ``h`` (the
layer's output) or its ``c`` (``return_state=True``) — is the claim's output.
The cell's weights map through the parity engine's named transforms
(`lstm_kernel`, `lstm_bias`; `gru_kernel`, `gru_bias`): TF1 keeps one kernel
over ``[x, h]``, Keras a kernel and a recurrent kernel, so the port is at
rounding level (the verdict names the transforms). Sequence lengths, initial
states, time-major inputs, peepholes, projections and clipping have no Keras
twin here and are left to the refusal.
"""
from __future__ import annotations

from migrate.port.graph import Claim, LayerSpec, snake
from migrate.port.records import Conversion
from migrate.port.registry import Twin

CELLS = {"LSTMCell": "LSTM", "BasicLSTMCell": "LSTM", "GRUCell": "GRU"}
UNSUPPORTED_CELL = ("_use_peepholes", "_cell_clip", "_num_proj", "_proj_clip")


def _activation_ok(cell) -> bool:
    activation = getattr(cell, "_activation", None)
    return activation is None or getattr(activation, "__name__", "") == "tanh"


def _consumed(view, result):
    outputs, state = result
    candidates = {"sequences": outputs}
    if hasattr(state, "h") and hasattr(state, "c"):
        candidates.update(h=state.h, c=state.c)
    elif hasattr(state, "op"):
        candidates.update(h=state)
    used = {key: tensor for key, tensor in candidates.items()
            if tensor.name in view.targets or view.consumers(tensor)}
    if len(used) == 2 and "h" in used and "sequences" in used:
        return None  # both: the layer would be called twice; left to the refusal
    return next(iter(used.items())) if len(used) == 1 else None


def match(op, view):
    call = view.call_of(op, "tf.compat.v1.nn.dynamic_rnn")
    if call is None:
        return None
    arguments, cell = call.arguments, call.arguments["cell"]
    kind = type(cell).__name__
    if kind not in CELLS or any(getattr(cell, name, None) for name in UNSUPPORTED_CELL) or not _activation_ok(cell):
        return None
    if arguments.get("sequence_length") is not None or arguments.get("initial_state") is not None \
            or arguments.get("time_major"):
        return None
    consumed = _consumed(view, call.result)
    if consumed is None:
        return None
    part, output = consumed
    cluster = view.absorb([view.needed[name] for name in view.needed if view.needed[name]._id in call.op_ids],  # noqa: SLF001
                          [arguments["inputs"]])
    variables = [variable.name.split(":")[0] for variable in cell.variables]
    scope = arguments.get("scope")
    layer = (scope if isinstance(scope, str) else "rnn").replace("/", "_")
    cell_name = "lstm_cell" if CELLS[kind] == "LSTM" else "gru_cell"
    units = int(cell.output_size)
    flags = {"sequences": ", return_sequences=True", "c": ", return_state=True", "h": ""}[part]
    extra = ", reset_after=False" if CELLS[kind] == "GRU" else ""
    widths = {f"{name}#1" for name in variables if name.endswith("/kernel")}
    constructor = f"keras.layers.{CELLS[kind]}({view.spell(units, widths)}{flags}{extra}, name={layer!r})"
    attribute = snake(layer)
    pick = "[2]" if part == "c" else ""
    if CELLS[kind] == "LSTM":
        kernel = next((name for name in variables if name.endswith("/kernel")), None)
        bias = next((name for name in variables if name.endswith("/bias")), None)
        if kernel is None or bias is None:
            return None
        if float(getattr(cell, "_forget_bias", 1.0)) != 1.0:
            return None  # the registered lstm_bias folds TF1's default forget bias 1.0
        bias_transform = "lstm_bias"
        weights = {kernel: ([f"{cell_name}/kernel", f"{cell_name}/recurrent_kernel"], "lstm_kernel"),
                   bias: (f"{cell_name}/bias", bias_transform)}
    else:
        gates = [name for name in variables if "/gates/" in name]
        candidate = [name for name in variables if "/candidate/" in name]
        if len(gates) != 2 or len(candidate) != 2:
            return None
        kernels = tuple(sorted(name for name in gates + candidate if name.endswith("/kernel")))[::-1]
        biases = tuple(sorted(name for name in gates + candidate if name.endswith("/bias")))[::-1]
        weights = {kernels: ([f"{cell_name}/kernel", f"{cell_name}/recurrent_kernel"], "gru_kernel"),
                   biases: (f"{cell_name}/bias", "gru_bias")}
    return Claim(cluster, [arguments["inputs"]], output, lambda args: f"self.{attribute}({args[0]}){pick}",
                 Conversion(call.where or view.location(op), f"{kind} under dynamic_rnn ({', '.join(variables)})",
                            constructor), LayerSpec(attribute, constructor, weights, layer), attribute)


TWIN = Twin("rnn", match, priority=1)
