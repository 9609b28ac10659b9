"""The general porter: trace the `model_fn` in TRAIN, EVAL and PREDICT modes and write each op cluster's twin.

Forward pass: the TRAIN graph's ops from the features to the loss's inputs
(dropout included: Keras applies it in training only, as TF1's TRAIN mode
does), plus the PREDICT outputs — found in the TRAIN graph by name, or
computed from it by the PREDICT graph's own ops (a softmax for
``probabilities``). Loss: the TRAIN graph's ops from those outputs and the
labels to `EstimatorSpec.loss`. Optimizer: the recorded `apply_gradients`;
a string param that selects it (``params["optimizer"]``) is probed with the
names TF1 code uses, so the port switches like the model_fn does.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import tensorflow as tf

from migrate.port.codegen import (
    MODEL_NAME,
    MetricCode,
    ModelCode,
    PairCode,
    keras_model_text,
    module_root,
    pair_text,
    raw_variables_layer,
)
from migrate.port.contrib import recorded_uses
from migrate.port.emit import Names, Program, build_program
from migrate.port.gradient_sums import rounding_note, unordered_sums
from migrate.port.graph import GraphView, snake, spell
from migrate.port.inputs import USER_INPUT, plan_input
from migrate.port.locations import user_location
from migrate.port.moving_statistics import fused_batch_norms, moving_statistics_note
from migrate.port.optimizer_parts import PartsPlan, plan_parts
from migrate.port.records import Conversion, Port, PortRefused, Problem
from migrate.port.registry import Porter, Progress, twins
from migrate.port.serving import NoServing, ServingCode, port_serving
from migrate.port.target import SourceRef, Target
from migrate.port.trace import ModeTrace, merged, trace_mode
from migrate.port.training import (
    OPTIMIZER_NAMES,
    OptimizerPlan,
    minimized_loss,
    plan_optimizer,
    probed_names,
)

FRONTIER = "__frontier__"
"""Marks, in the loss code, a tensor the forward pass computes (replaced by ``outputs[key]``)."""


def _structure_exprs(structure: Any, root: str) -> dict[str, str]:
    """Placeholder tensor name → the Python expression of that input (``features``, ``features["age"]``)."""
    if isinstance(structure, tf.Tensor):
        return {structure.name: root}
    if isinstance(structure, dict):
        found = {}
        for key, value in structure.items():
            found.update(_structure_exprs(value, f"{root}[{key!r}]"))
        return found
    if isinstance(structure, (tuple, list)):
        found = {}
        for index, value in enumerate(structure):
            found.update(_structure_exprs(value, f"{root}[{index}]"))
        return found
    return {}


def _sample(spec: Any) -> str:
    if isinstance(spec, tf.TensorSpec):
        shape = [1, *[size if size is not None else 1 for size in spec.shape.as_list()[1:]]]
        return f"tf.zeros({shape}, tf.{spec.dtype.name})"
    if isinstance(spec, dict):
        return "{" + ", ".join(f"{key!r}: {_sample(value)}" for key, value in spec.items()) + "}"
    return "(" + ", ".join(_sample(value) for value in spec) + ",)"


def _dependent_on(graph: tf.Graph, sources: list[tf.Tensor]) -> set[str]:
    """Names of the ops reachable from `sources` (the labels)."""
    found, frontier = set(), [consumer for tensor in sources for consumer in tensor.consumers()]
    while frontier:
        op = frontier.pop()
        if op.name in found:
            continue
        found.add(op.name)
        frontier += [consumer for output in op.outputs for consumer in output.consumers()]
    return found


def _predictions(trace: ModeTrace) -> dict[str, tf.Tensor]:
    predictions = trace.spec.predictions
    if predictions is None:
        return {}
    return dict(predictions) if isinstance(predictions, dict) else {"predictions": predictions}


def _counterpart(graph: tf.Graph, tensor: tf.Tensor, strict: bool = False,
                 mode_scopes: frozenset[str] = frozenset()) -> tf.Tensor | None:
    """The tensor of `graph` made by the same code as `tensor` of another mode's trace: the same name and op type
    (the layers' mode-dependent ops — dropout, batch norm — may differ: their Keras twins take `training`);
    `strict`: the same ops all the way up (an EVAL-only op must not match a TRAIN op that shares its name), except
    inside `mode_scopes` (batch norm layers: their Keras twin called with ``training=False`` computes the EVAL ops),
    where only what enters the layer must have the same history."""
    try:
        found = graph.get_tensor_by_name(tensor.name)
    except (KeyError, ValueError):
        return None
    if strict:
        try:
            return found if _same_history(found.op, tensor.op, {}, mode_scopes) else None
        except RecursionError:  # deeper than Python's stack: not shown to be the same
            return None
    return found if found.op.type == tensor.op.type else None


def _same_history(left, right, seen: dict, mode_scopes: frozenset[str] = frozenset()) -> bool:
    key = (left.name, right.name)
    if key not in seen:
        seen[key] = True  # a cycle (loops) counts as the same until shown otherwise
        scope = next((scope for scope in mode_scopes if left.name.startswith(scope)), None)
        if scope is not None and left.name == right.name and left.type == right.type:
            entering = _entering(left, scope), _entering(right, scope)
            seen[key] = list(entering[0]) == list(entering[1]) and all(
                _same_history(a.op, b.op, seen, mode_scopes) for a, b in zip(entering[0].values(), entering[1].values()))
            return seen[key]
        same = left.name == right.name and left.type == right.type and len(left.inputs) == len(right.inputs)
        seen[key] = same and all(a.name == b.name and _same_history(a.op, b.op, seen, mode_scopes)
                                 for a, b in zip(left.inputs, right.inputs))
    return seen[key]


def _entering(op, scope: str) -> dict[str, tf.Tensor]:
    """The tensors from outside `scope` that `op`'s ops inside `scope` read (a layer's input), sorted by name."""
    found, frontier, visited = {}, [op], set()
    while frontier:
        current = frontier.pop()
        if current.name in visited:
            continue
        visited.add(current.name)
        for tensor in current.inputs:
            if tensor.op.name.startswith(scope):
                frontier.append(tensor.op)
            else:
                found[tensor.name] = tensor
    return dict(sorted(found.items()))


def _mode_scopes(train: ModeTrace) -> frozenset[str]:
    """The scopes of the TRAIN graph's batch norm layers (``bn/`` of ``bn/moving_mean``): EVAL computes them otherwise."""
    return frozenset(op.name.rsplit("/", 1)[0] + "/" for op in train.graph.get_operations()
                     if op.type in ("VarHandleOp", "VariableV2") and op.name.endswith("/moving_mean"))


def _cut(train: ModeTrace, infer_tensor: tf.Tensor) -> list[tuple[tf.Tensor, tf.Tensor]]:
    """(PREDICT tensor, TRAIN tensor) pairs where the PREDICT-only ops of a prediction start."""
    cuts, frontier, seen = [], [infer_tensor], set()
    while frontier:
        tensor = frontier.pop()
        if tensor.name in seen:
            continue
        seen.add(tensor.name)
        twin = _counterpart(train.graph, tensor)
        if twin is not None and twin.op.type not in ("Const",):
            cuts.append((tensor, twin))
            continue
        frontier += list(tensor.op.inputs)
    return cuts


class ScheduleWriter:
    """Writes a learning rate computed from the global step as the body of a Keras `LearningRateSchedule`."""

    def __init__(self, trace: ModeTrace, params: dict, influence: dict | None = None) -> None:
        self.trace, self.params, self.influence = trace, params, influence
        self.lines: list[str] = []
        self.conversions: list = []

    def __call__(self, tensor) -> str | Problem:
        graph = self.trace.graph
        steps = [op for op in graph.get_operations() if op.type in ("VarHandleOp", "VariableV2")
                 and op.name == "global_step"]
        known = {}
        for step in steps:
            known[step.outputs[0].name] = "step"
            for consumer in step.outputs[0].consumers():
                if consumer.type in ("ReadVariableOp", "Identity"):
                    known[consumer.outputs[0].name] = "step"
        program = build_program(GraphView(graph, [tensor], known, self.trace.calls, self.params, spell_floats=True,
                                          influence=self.influence),
                                twins(), Names({"step"}))
        if program.problems:
            return program.problems[0]
        if tensor.name not in program.expressions:
            return Problem("", "the learning rate is not computed from the global step", "give it as a number")
        self.lines = [*program.statements, f"return {program.expressions[tensor.name]}"]
        self.conversions = [Conversion(row.where, row.construct, row.keras, "training") for row in program.conversions]
        return "TF1LearningRate(params)"


def _optimizer_plans(target: Target, train: ModeTrace, spec: tuple, spell_value,
                     schedule: ScheduleWriter) -> tuple[dict, str | None, list]:
    if not train.optimizers:
        return {}, None, [Problem(target.model_fn.where, "the TRAIN graph applies no tf.compat.v1.train optimizer",
                                  "train with optimizer.minimize / apply_gradients of a tf.compat.v1.train optimizer")]
    parts = plan_parts(train.optimizers, frozenset(variable.op.name for variable in _trainable(train)), spell_value,
                       train.calls)
    if parts is not None:
        return ({}, None, parts) if isinstance(parts, list) else ({None: parts}, None, [])
    plan = plan_optimizer(train.optimizers[-1], spell_value, train.calls, schedule)
    if isinstance(plan, Problem):
        return {}, None, [plan]
    selectors = [key for key, value in target.params.items() if isinstance(value, str) and value.lower() in OPTIMIZER_NAMES]
    for key in selectors:
        plans: dict[str, OptimizerPlan] = {}
        seen: set[str] = set()
        for name in probed_names(target.params[key]):
            try:
                probe = trace_mode(target.model_fn, "train", {**target.params, key: name}, spec)
            except PortRefused:
                continue
            if not probe.optimizers or type(probe.optimizers[-1].optimizer).__name__ in seen:
                continue
            seen.add(type(probe.optimizers[-1].optimizer).__name__)
            variant = {**target.params, key: name}
            reach = _optimizer_keys(target, variant, spec, probe)
            candidate = plan_optimizer(probe.optimizers[-1], lambda value, reach=reach: spell(value, reach), probe.calls,
                                       ScheduleWriter(probe, target.params))
            if isinstance(candidate, OptimizerPlan):
                plans[name] = candidate
        if len(plans) > 1:
            return plans, key, []
    return {None: plan}, None, []


def _optimizer_fields(optimizers: dict, variable_map: dict) -> dict:
    """`ModelCode`'s optimizer fields: the constructor per choice, the statements before it, the twins imported."""
    parts = optimizers.get(None)
    if isinstance(parts, PartsPlan):
        statements, expression = parts.code(variable_map)
        return {"optimizers": {None: expression}, "optimizer_lines": statements, "twin_classes": parts.twins}
    return {"optimizers": {key: plan_.constructor for key, plan_ in optimizers.items()},
            "twin_classes": [plan_.twin for plan_ in optimizers.values()]}


def _optimizer_keys(target: Target, params: dict, spec: tuple, base: ModeTrace) -> dict:
    """The numeric params (and their values) whose change changes the optimizer `base` builds."""
    reference, reach = _optimizer_state(base), {}
    for key, value in params.items():
        if key == "seed" or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        try:
            probe = trace_mode(target.model_fn, "train", {**params, key: _perturbed(value)}, spec)
        except PortRefused:
            continue
        if _optimizer_state(probe) != reference:
            reach[key] = value
    return reach


ROUNDING_FORWARD, ROUNDING_LOSS = 1e-6, 1e-5
"""The check's tolerances when weights map through a transform (an LSTM's [x, h]·W split): examples/tf1_idiom's.
The served answers of the trained models get the loss's (they drift with it: 4e-6 after tf1_idiom's 200 steps)."""
OPTIMIZER_MARK = "<optimizer>"
"""Stands, in a param's influence, for the optimizer's own hyperparameters."""


def _signature(trace: ModeTrace) -> dict[str, tuple]:
    """Op name → what a param can change in it: its type, its constant, its variable's shape."""
    parts = {}
    for op in trace.graph.get_operations():
        value = op.get_attr("value") if op.type == "Const" else None
        shape = op.get_attr("shape") if op.type in ("VarHandleOp", "VariableV2") else None
        parts[op.name] = (op.type, str(value) if value is not None else "", str(shape) if shape is not None else "")
    parts[OPTIMIZER_MARK] = ("", _optimizer_state(trace), "")
    return parts


def _perturbed(value: int | float) -> int | float:
    return value + 1 if isinstance(value, int) else value * 1.5 + 0.125


def param_influence(target: Target, spec: tuple, base: ModeTrace) -> dict[str, frozenset]:
    """Numeric param → the ops its change changes in the TRAIN graph (`OPTIMIZER_MARK`: the optimizer's settings).

    A value in the generated code is written ``params["key"]`` only where that
    key reaches (`migrate.port.graph.spell`): a batch size equal to a layer's
    width is not the layer's width. A param whose change breaks the model_fn
    reaches everything.
    """
    reference = _signature(base)
    influence = {}
    for key, value in target.params.items():
        if key == "seed" or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        probe_trace = None
        try:
            probe_trace = trace_mode(target.model_fn, "train", {**target.params, key: _perturbed(value)}, spec)
            probe = _signature(probe_trace)
        except PortRefused:
            influence[key] = frozenset(reference)
            continue
        changed = {name for name in set(reference) | set(probe) if reference.get(name) != probe.get(name)}
        changed |= _changed_dimensions(base, probe_trace) if probe_trace is not None else set()
        if changed:
            influence[key] = frozenset(changed)
    return influence


def _variable_shapes(trace: ModeTrace) -> dict[str, list[int]]:
    return {op.name: [dim.size for dim in op.get_attr("shape").dim] for op in trace.graph.get_operations()
            if op.type in ("VarHandleOp", "VariableV2")}


def _changed_dimensions(base: ModeTrace, probe: ModeTrace) -> set[str]:
    """``<variable>#<axis>`` for each axis of a variable's shape a param changes (a layer's width is its kernel's last)."""
    before, after = _variable_shapes(base), _variable_shapes(probe)
    return {f"{name}#{axis}" for name, shape in before.items() if name in after and len(after[name]) == len(shape)
            for axis, (old, new) in enumerate(zip(shape, after[name])) if old != new}


def _optimizer_state(trace: ModeTrace) -> str:
    return "".join(repr(sorted((k, repr(v)) for k, v in vars(o.optimizer).items() if isinstance(v, (int, float))))
                   for o in trace.optimizers)


def port(target: Target, progress: Progress) -> Port:
    if target.input_fn is None:
        raise PortRefused([Problem(target.spec, "no training input function", "give --input-fn module:function")])
    params = dict(target.params)
    spell_input = lambda value: spell(value, params)  # noqa: E731
    progress(f"port: reading the input function {target.input_fn.spelled}")
    plan = plan_input(target.input_fn, params, spell_input)
    eval_plan = plan_input(target.eval_input_fn, params, spell_input, role="eval") if target.eval_input_fn else None
    progress("port: tracing model_fn in TRAIN, EVAL and PREDICT modes")
    traces = _trace_modes(target, params, plan.element_spec)
    train, infer = traces["train"], traces["infer"]
    influence = param_influence(target, plan.element_spec, train)
    arrays = {key: value for key, value in params.items() if isinstance(value, np.ndarray)}  # a constant's source
    spelled = {**arrays, **{key: params[key] for key in influence}}
    clipping = {op.name for call in train.calls if call.api == "tf.clip_by_global_norm"
                for op in train.graph.get_operations() if op._id in call.op_ids}  # noqa: SLF001
    spell_value = lambda value: spell(value, spelled, {OPTIMIZER_MARK, *clipping}, influence)  # noqa: E731
    names = Names()
    losses = TrainingLosses.of(train)
    loss = _loss_program(train, losses, spelled, influence, names)
    metrics, metric_notes = _metric_programs(traces["eval"], train, spelled, influence)
    network = _network_programs(train, infer, loss, losses, metrics, spelled, influence, names)
    schedule = ScheduleWriter(train, spelled, influence)
    optimizers, selector, optimizer_problems = _optimizer_plans(target, train, plan.element_spec, spell_value, schedule)
    problems = network.forward.problems + network.tail.problems + loss.problems + optimizer_problems
    if problems:
        raise PortRefused(_unique(problems))
    layers, variable_map = _bind_weights(target, train, network, loss, metrics, names)
    loss_lines, loss_expression, minimized_expression = _loss_code(loss, losses)
    model = ModelCode(
        origin=target.spec, layers=layers, call_lines=network.forward.statements + network.tail.statements,
        outputs=network.outputs, loss_lines=loss_lines, loss_expression=loss_expression,
        minimized_expression=minimized_expression,
        **_optimizer_fields(optimizers, variable_map), optimizer_param=selector, sample_features=_sample(plan.element_spec[0]),
        schedule_lines=schedule.lines,
        prediction="predictions" if hasattr(infer.spec.predictions, "op") else None,
        metrics=[metric.code for metric in metrics],
        prediction_keys=list(network.predictions) or list(network.outputs),
    )
    serving, serving_note = _serving(target, params, infer, plan.element_spec[0], network, names)
    if serving is not None:
        model.call_lines += serving.call_lines
        model.outputs.update(serving.outputs)
        model.serving_text = serving.keras_text
    literal = _json_params(params)
    pair = PairCode(origin=target.spec, sources=_sources(target), bindings=_bindings(target, target.input_fn), params=literal,
                    params_source="_model_source.PARAMS" if len(literal) < len(params) and target.input_fn is not None
                    and "PARAMS" in target.values else None,
                    variable_map=variable_map, input_code=plan.code + (f"\n\n{eval_plan.code}" if eval_plan else ""),
                    uses_input_arrays="rewritten" in (plan.kind, eval_plan.kind if eval_plan else ""),
                    values={}, serving_text=serving.pair_text if serving is not None else "",
                    contrib=bool(recorded_uses()))
    conversions = [plan.conversion, *(metric.conversion for metric in metrics), *network.forward.conversions,
                   *network.tail.conversions, *loss.conversions,
                   *schedule.conversions, *(row for plan_ in optimizers.values() for row in plan_.conversions)]
    notes, options = _notes_and_options(plan.note, layers, selector, list(optimizers), metric_notes)
    notes += [losses.note] if losses.note else []
    graph_notes, options = _graph_rounding(train.graph, options)
    notes += [*graph_notes, serving_note]
    conversions += serving.conversions if serving is not None else []
    return Port("traced model_fn", {"keras_model.py": keras_model_text(model), "pair.py": pair_text(pair)},
                conversions, notes, options)


def _serving(target: Target, params: dict, infer: ModeTrace, features_spec: Any, network: NetworkPrograms,
             names: Names) -> tuple[ServingCode | None, str]:
    """The port's serving part (`migrate.port.serving`) and PORT.md's note on it (why there is none)."""
    try:
        code = port_serving(target, params, infer, features_spec, network.outputs, network.predictions, names)
    except NoServing as reason:
        return None, f"no serving functions written: {reason}"
    except Exception as error:  # noqa: BLE001 - the port stands without serving; PORT.md names the failure
        return None, (f"no serving functions written: reading the export failed ({type(error).__name__}: {error}), "
                      "a bug of migrate port — please report it")
    return code, code.note


def _trace_modes(target: Target, params: dict, element_spec: tuple) -> dict[str, ModeTrace]:
    """The model_fn traced in TRAIN, EVAL and PREDICT modes; refused with every mode's problems, or without a loss."""
    refusals: list[PortRefused] = []
    traces = {}
    for mode in ("train", "eval", "infer"):
        try:
            traces[mode] = trace_mode(target.model_fn, mode, params, element_spec)
        except PortRefused as refused:
            refusals.append(refused)
    if refusals:
        raise PortRefused(merged(refusals))
    train = traces["train"]
    if train.spec.loss is None or train.spec.train_op is None:
        raise PortRefused([Problem(target.model_fn.where, "model_fn gives no loss or no train_op in TRAIN mode",
                                   "return EstimatorSpec(mode, loss=..., train_op=...) in TRAIN mode")])
    return traces


@dataclass(frozen=True)
class TrainingLosses:
    """The TRAIN graph's loss the EstimatorSpec reports, and the one its train_op minimizes when that is another."""

    reported: tf.Tensor
    minimized: tf.Tensor | None = None

    @classmethod
    def of(cls, train: ModeTrace) -> TrainingLosses:
        """The losses of a TRAIN trace: its spec's, and what its last optimizer minimizes when that is another."""
        reported = train.spec.loss
        return cls(reported, minimized_loss(train.optimizers[-1], reported) if train.optimizers else None)

    @property
    def targets(self) -> list[tf.Tensor]:
        return [self.reported] if self.minimized is None else [self.reported, self.minimized]

    @property
    def note(self) -> str:
        """PORT.md's note on a minimized loss other than the reported one ("" when they are one)."""
        minimized = self.minimized
        if minimized is None:
            return ""
        where = [user_location(tensor.op.traceback) or "?" for tensor in (minimized, self.reported)]
        return (f"two losses: the train_op minimizes {minimized.op.name} ({where[0]}) and the EstimatorSpec reports "
                f"{self.reported.op.name} ({where[1]}); `train_step` differentiates the first and reports the second "
                "as the step's loss (and `test_step` as the evaluation loss), as the Estimator trains and logs them, "
                "so the check compares the reported losses and the weights the minimized one trains")


def _loss_code(loss: Program, losses: TrainingLosses) -> tuple[list[str], str, str | None]:
    """`ModelCode`'s loss fields: the statements, the reported loss's expression, the minimized one's (or None)."""
    if losses.minimized is not None:
        return loss.statements, loss.expressions[losses.reported.name], loss.expressions[losses.minimized.name]
    if loss.statements:  # the last statement computes the loss: returned as its expression, not through a name
        return loss.statements[:-1], loss.statements[-1].split(" = ", 1)[1], None
    return [], loss.expressions[losses.reported.name], None


def _loss_program(train: ModeTrace, losses: TrainingLosses, spelled: dict, influence: dict, names: Names) -> Program:
    """The TRAIN losses written over the labels and the forward tensors they read (marked `FRONTIER`)."""
    labels = tf.nest.flatten(train.labels)
    dependent = _dependent_on(train.graph, labels)
    loss_known = {}
    for op in train.graph.get_operations():
        if op.name not in dependent and op.type not in ("Const", "VarHandleOp", "VariableV2", "ReadVariableOp") \
                and not any(tensor.dtype == tf.resource for tensor in op.outputs):  # a lookup table of the labels
            loss_known.update({tensor.name: f"{FRONTIER}{tensor.name}{FRONTIER}" for tensor in op.outputs})
    loss_known.update(_structure_exprs(train.labels, "labels"))
    return build_program(GraphView(train.graph, losses.targets, loss_known, train.calls, spelled, influence=influence),
                         twins(), names)


@dataclass
class NetworkPrograms:
    """The forward pass (TRAIN graph), the PREDICT-only tail, and the outputs `forward()` returns (key → code)."""

    forward: Program
    tail: Program
    outputs: dict[str, str]
    predictions: dict[str, tf.Tensor]


def _network_programs(train: ModeTrace, infer: ModeTrace, loss: Program, losses: TrainingLosses, metrics: list,
                      spelled: dict, influence: dict, names: Names) -> NetworkPrograms:
    """Write the forward pass and the PREDICT tail; point the loss's and metrics' `FRONTIER` marks at its outputs."""
    referenced = re.findall(f"{FRONTIER}(.+?){FRONTIER}", "\n".join(
        [*loss.statements, *(loss.expressions.get(tensor.name, "") for tensor in losses.targets)]))
    frontier = [train.graph.get_tensor_by_name(name) for name in dict.fromkeys(referenced)]
    metric_frontier = [twin for metric in metrics for _, twin in metric.frontier]
    predictions = _predictions(infer)
    mapped, tails, cuts = {}, {}, []
    for key, tensor in predictions.items():
        twin = _counterpart(train.graph, tensor)
        if twin is not None:
            mapped[key] = twin
        else:
            tails[key] = tensor
            cuts += _cut(train, tensor)
    outputs: dict[str, str] = {}
    forward_targets = [*frontier, *mapped.values(), *(twin for _, twin in cuts), *metric_frontier]
    feature_exprs = _structure_exprs(train.features, "features")
    forward = build_program(GraphView(train.graph, forward_targets, feature_exprs, train.calls, spelled, influence=influence), twins(), names)
    tail = build_program(GraphView(infer.graph, list(tails.values()),
                                   {infer_tensor.name: forward.expressions.get(twin.name, "") for infer_tensor, twin in cuts},
                                   infer.calls, spelled, influence=influence), twins(), names)
    for key, tensor in mapped.items():
        outputs[key] = forward.expressions.get(tensor.name, "None")
    for key, tensor in tails.items():
        outputs[key] = tail.expressions.get(tensor.name, "None")
    for tensor in frontier:
        key = next((k for k, t in mapped.items() if t.name == tensor.name), None) or snake(tensor.op.name)
        outputs.setdefault(key, forward.expressions.get(tensor.name, "None"))
        sentinel = f"{FRONTIER}{tensor.name}{FRONTIER}"
        loss.statements = [line.replace(sentinel, f"outputs[{key!r}]") for line in loss.statements]
        loss.expressions = {name: text.replace(sentinel, f"outputs[{key!r}]") for name, text in loss.expressions.items()}
    for metric in metrics:
        for eval_name, tensor in metric.frontier:
            key = next((k for k, t in mapped.items() if t.name == tensor.name), None) or snake(tensor.op.name)
            outputs.setdefault(key, forward.expressions.get(tensor.name, "None"))
            metric.replace(f"{FRONTIER}{eval_name}{FRONTIER}", f"outputs[{key!r}]")
    return NetworkPrograms(forward, tail, outputs, predictions)


def _bind_weights(target: Target, train: ModeTrace, network: NetworkPrograms, loss: Program, metrics: list,
                  names: Names) -> tuple[list, dict]:
    """The layers (raw variables in a `TF1Variables` layer) and the TF1 variable → Keras weight map; refused when a
    trainable variable belongs to none."""
    forward, tail = network.forward, network.tail
    layers = forward.layers + tail.layers + loss.layers  # the loss's: a lookup table of its string labels
    owned = {tf1: f"self.{layer.attribute}.{weight}" for layer in layers for tf1, weight in layer.weights.items()
             if isinstance(tf1, str) and isinstance(weight, str)}
    for tf1, expression in owned.items():  # a layer's own weight read by raw ops (weight decay): the layer's
        raw = f"self.tf1_variables.tf1[{tf1!r}]"
        for lines in (forward.statements, tail.statements, loss.statements,
                      *(metric.code.lines for metric in metrics), *(metric.code.arguments for metric in metrics)):
            lines[:] = [line.replace(raw, expression) for line in lines]
    raw_only = {name: spec for name, spec in names.raw_variables.items() if name not in owned}
    layers = ([raw_variables_layer(raw_only)] if raw_only else []) + layers
    if raw_only:  # built by a call inside the model's call, so its weights are named under the model like the others
        forward.statements.insert(0, "self.tf1_variables(features)")
    variable_map = {tf1: _keras_path(layer.name, weight) for layer in layers for tf1, weight in layer.weights.items()}
    mapped_names = {name for key in variable_map for name in (key if isinstance(key, tuple) else (key,))}
    unmapped = sorted({v.op.name for v in _trainable(train)} - mapped_names)
    if unmapped:
        raise PortRefused([Problem(target.model_fn.where, f"trainable variables outside the recognised layers: {', '.join(unmapped)}",
                                   "use them through layers migrate port knows (see PORT.md), or port this part by hand")])
    return layers, variable_map


def _notes_and_options(input_note: str | None, layers: list, selector: str | None, optimizer_names: list,
                       metric_notes: list[str]) -> tuple[list[str], dict]:
    """PORT.md's notes, and the check's tolerances when weights map through a transform (rounding level)."""
    notes = [note for note in (input_note,) if note]
    if any("Dropout" in layer.constructor for layer in layers):
        notes.append("dropout draws other random numbers in Keras: with a rate above 0 the port holds parity in the "
                     "statistical mode (`migrate parity --mode statistical`); the exact check needs the rate at 0")
    if selector:
        notes.append(f"params[{selector!r}] selects the optimizer, as in the model_fn: {', '.join(map(str, optimizer_names))}")
    notes += metric_notes
    transforms = sorted({weight[1] for layer in layers for weight in layer.weights.values() if isinstance(weight, tuple)})
    options = {}
    if transforms:
        options = {"forward_tolerance": ROUNDING_FORWARD, "loss_tolerance": ROUNDING_LOSS,
                   "serving_tolerance": ROUNDING_LOSS}
        notes.append(f"rounding level: weights map through the transforms {', '.join(transforms)}, which sum in another "
                     f"order than TF1 (see `migrate parity --show-mapping`); the check allows --forward-tolerance "
                     f"{ROUNDING_FORWARD:g} --loss-tolerance {ROUNDING_LOSS:g} --serving-tolerance {ROUNDING_LOSS:g}")
    return notes, options


def _graph_rounding(graph: tf.Graph, options: dict) -> tuple[list[str], dict]:
    """PORT.md's notes on what the TRAIN graph computes that Keras rounds otherwise, and the check's options for it:
    gradients of a tensor with 3+ readers (summed in another order), else fused batch norms' moving statistics."""
    sums = unordered_sums(graph)
    if sums:  # the check then allows what the engine names "the same update summed in another order"
        return [rounding_note(sums)], {"forward_tolerance": ROUNDING_FORWARD, "loss_tolerance": ROUNDING_LOSS,
                                       "serving_tolerance": ROUNDING_LOSS}
    fused = fused_batch_norms(graph)
    if fused:  # exact training, served answers from moving statistics a few ulp apart
        return [moving_statistics_note(fused)], {**options, "schedule": "rounding", "serving_tolerance": ROUNDING_LOSS}
    return [], options


def _keras_path(layer: str, weight):
    """The Keras weight path(s) of a layer's weight; a (paths, transform) pair keeps its transform."""
    if isinstance(weight, tuple):
        paths, transform = weight
        paths = [f"{MODEL_NAME}/{layer}/{path}" for path in paths] if isinstance(paths, list) else f"{MODEL_NAME}/{layer}/{paths}"
        return paths, transform
    return f"{MODEL_NAME}/{layer}/{weight}"


METRICS = {"tf.compat.v1.metrics.accuracy": "keras.metrics.Accuracy", "tf.compat.v1.metrics.mean": "keras.metrics.Mean"}
"""TF1 metric → the Keras metric computing the same running value (a total over a count)."""


class MetricProgram:
    """One EVAL metric as test_step code: the lines computing its arguments and the Keras metric updated with them."""

    def __init__(self, name: str, call, program, arguments: list[str], frontier: list) -> None:
        self.name, self.call, self.frontier = name, call, frontier
        self.lines, self.arguments = list(program.statements), arguments
        attribute = f"metric_{snake(name)}"
        self.code = MetricCode(name, attribute, f"{METRICS[call.api]}(name={name!r})", self.lines, self.arguments)
        self.conversion = Conversion(call.where, f"{call.api} ({name!r}, EVAL)", f"{METRICS[call.api]}(name={name!r})",
                                     "training")

    def replace(self, old: str, new: str) -> None:
        self.code.lines[:] = [line.replace(old, new) for line in self.code.lines]
        self.code.arguments[:] = [argument.replace(old, new) for argument in self.code.arguments]


def _metric_programs(evaluation: ModeTrace, train: ModeTrace, params: dict, influence: dict) -> tuple[list, list[str]]:
    """The EVAL metrics with a Keras twin, written over the labels and the forward outputs; notes for the others."""
    metric_ops = evaluation.spec.eval_metric_ops or {}
    label_exprs = _structure_exprs(evaluation.labels, "labels")
    dependent = _dependent_on(evaluation.graph, tf.nest.flatten(evaluation.labels))
    scopes = _mode_scopes(train)
    known = {}
    for op in evaluation.graph.get_operations():
        if op.name not in dependent and op.type not in ("Const", "VarHandleOp", "VariableV2", "ReadVariableOp") \
                and not any(tensor.dtype == tf.resource for tensor in op.outputs):  # a lookup table of the labels
            known.update({tensor.name: f"{FRONTIER}{tensor.name}{FRONTIER}" for tensor in op.outputs
                          if _counterpart(train.graph, tensor, True, scopes) is not None})
    known.update(label_exprs)
    programs, notes, names = [], [], Names({"loss"})
    for name, pair in metric_ops.items():
        value = pair[0] if isinstance(pair, (tuple, list)) else pair
        call = next((c for c in evaluation.calls if c.api in METRICS and isinstance(c.result, (tuple, list))
                     and c.result[0] is value), None)
        if call is None or call.arguments.get("weights") is not None:
            notes.append(f"the EVAL metric {name!r} has no Keras twin here: the evaluation stage compares the others")
            continue
        tensors = [call.arguments["labels"], call.arguments["predictions"]] if "labels" in call.arguments \
            else [call.arguments["values"]]
        program = build_program(GraphView(evaluation.graph, tensors, known, evaluation.calls, params, influence=influence),
                                twins(), names)
        arguments = [program.expressions.get(tensor.name) for tensor in tensors]
        text = "\n".join([*program.statements, *filter(None, arguments)])
        frontier = []
        for eval_name in dict.fromkeys(re.findall(f"{FRONTIER}(.+?){FRONTIER}", text)):
            twin = _counterpart(train.graph, evaluation.graph.get_tensor_by_name(eval_name), True, scopes)
            frontier.append((eval_name, twin))
        if program.problems or program.layers or None in arguments or any(twin is None for _, twin in frontier):
            notes.append(f"the EVAL metric {name!r} reads what the TRAIN graph does not compute: not carried over")
            continue
        programs.append(MetricProgram(name, call, program, [argument for argument in arguments if argument is not None],
                                      frontier))
    return programs, notes


def _trainable(trace: ModeTrace) -> list:
    with trace.graph.as_default():
        return tf.compat.v1.trainable_variables()


def _unique(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


def _json_params(params: dict) -> dict:
    """The params the generated pair can spell as Python literals (numbers, text, tuples, lists, dicts of them)."""
    kept = {}
    for key, value in params.items():
        try:
            if ast.literal_eval(repr(value)) == value:
                kept[key] = value
        except (ValueError, SyntaxError):
            continue
    return kept


def _source_spec(ref: SourceRef) -> tuple[str, str | None]:
    if ref.module:
        import sys

        module = sys.modules[ref.module]
        return ref.module, module_root(ref.module, module.__file__) if module.__file__ else None
    return str(ref.path), None


def _sources(target: Target) -> dict[str, tuple[str, str | None]]:
    sources = {"_model_source": _source_spec(target.model_fn)}
    if target.input_fn is not None and _source_spec(target.input_fn) != sources["_model_source"]:
        sources["_input_source"] = _source_spec(target.input_fn)
    if target.eval_input_fn is not None and _source_spec(target.eval_input_fn) != sources["_model_source"]:
        sources["_eval_source"] = _source_spec(target.eval_input_fn)
    return sources


def _bindings(target: Target, input_fn: SourceRef) -> dict[str, str]:
    """The pair's names bound to the user's functions (`input_fn`: the target's, which `port` requires)."""
    input_owner = "_input_source" if _source_spec(input_fn) != _source_spec(target.model_fn) else "_model_source"
    bindings = {"model_fn": f"_model_source.{target.model_fn.name}", USER_INPUT: f"{input_owner}.{input_fn.name}"}
    if target.eval_input_fn is not None:
        owner = "_model_source" if _source_spec(target.eval_input_fn) == _source_spec(target.model_fn) else "_eval_source"
        bindings["user_eval_input"] = f"{owner}.{target.eval_input_fn.name}"
    return bindings


PORTER = Porter("traced model_fn", claims=lambda target: True, port=port, priority=1000)
