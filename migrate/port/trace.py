"""Tracing a `model_fn` on TF 2.15: one fresh graph per mode, with the calls and optimizers that made it recorded.

The features and labels are placeholders shaped like the input function's
batches, so the traced graph holds the model alone. While the `model_fn`
runs, the TF1 API calls that twins recognise as a whole (`tf.compat.v1.losses.*`,
`tf.compat.v1.layers.*`, `tf.nn.dropout`, …: `RECORDED_APIS`) are wrapped to
record their arguments, their result and the ops they created, and
`Optimizer.apply_gradients` records the optimizer, its gradients and the
global step. Each op keeps its Python stack (`Operation.traceback`), each
variable its scope.
"""
from __future__ import annotations

import contextlib
import inspect
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import tensorflow as tf

from migrate.port.locations import is_user_file, relative, user_location
from migrate.port.records import PortRefused, Problem
from migrate.port.removed_api import explain
from migrate.port.target import SourceRef

MODE_KEYS = {"train": "train", "eval": "eval", "infer": "infer"}
RECORDED_APIS = (
    "compat.v1.losses.sparse_softmax_cross_entropy", "compat.v1.losses.softmax_cross_entropy",
    "compat.v1.losses.sigmoid_cross_entropy", "compat.v1.losses.mean_squared_error",
    "compat.v1.losses.absolute_difference", "compat.v1.losses.log_loss", "compat.v1.losses.hinge_loss",
    "compat.v1.losses.huber_loss", "compat.v1.losses.mean_pairwise_squared_error", "compat.v1.losses.cosine_distance",
    "nn.dropout", "compat.v1.nn.dropout", "compat.v1.layers.dropout",
    "compat.v1.layers.dense", "compat.v1.layers.conv1d", "compat.v1.layers.conv2d", "compat.v1.layers.conv3d",
    "compat.v1.layers.max_pooling1d", "compat.v1.layers.max_pooling2d", "compat.v1.layers.max_pooling3d",
    "compat.v1.layers.average_pooling1d", "compat.v1.layers.average_pooling2d", "compat.v1.layers.average_pooling3d",
    "compat.v1.layers.flatten", "compat.v1.layers.batch_normalization", "compat.v1.layers.conv2d_transpose",
    "compat.v1.layers.separable_conv2d", "compat.v1.train.piecewise_constant", "clip_by_global_norm",
    "compat.v1.clip_by_global_norm",
    "compat.v1.nn.dynamic_rnn", "compat.v1.nn.static_rnn", "compat.v1.nn.bidirectional_dynamic_rnn",
    "compat.v1.feature_column.input_layer", "compat.v1.metrics.accuracy", "compat.v1.metrics.mean",
)
"""API paths under `tf` whose calls are recorded (the outermost call only)."""


@dataclass
class RecordedCall:
    """One call of a `RECORDED_APIS` function while the model_fn ran."""

    api: str
    arguments: dict[str, Any]
    result: Any
    op_ids: frozenset
    where: str


@dataclass
class RecordedOptimizer:
    optimizer: Any
    grads_and_vars: list
    global_step: Any
    where: str
    loss: Any = None
    """The tensor `compute_gradients` (so `minimize`) differentiated, when the gradients came from it."""
    nested: bool = False
    """Made by another optimizer's `apply_gradients` (a wrapper such as `SyncReplicasOptimizer` applying its inner one)."""


@dataclass
class ModeTrace:
    mode: str
    graph: tf.Graph
    spec: Any
    features: Any
    labels: Any
    calls: list[RecordedCall] = field(default_factory=list)
    optimizers: list[RecordedOptimizer] = field(default_factory=list)


def _resolve(path: str) -> tuple[Any, str]:
    owner = tf
    *parents, name = path.split(".")
    for part in parents:
        owner = getattr(owner, part)
    return owner, name


@contextlib.contextmanager
def recording(graph: tf.Graph, calls: list[RecordedCall], optimizers: list[RecordedOptimizer]) -> Iterator[None]:
    """Wrap the recorded APIs and `apply_gradients` while the model_fn runs; restore them after."""
    depth = [0]
    patched: list[tuple[Any, str, Any, str]] = []

    def wrap(api: str, function: Callable) -> Callable:
        signature = inspect.signature(function)

        def recorded(*args, **kwargs):
            if depth[0]:
                return function(*args, **kwargs)
            depth[0] += 1
            first = len(graph.get_operations())
            try:
                result = function(*args, **kwargs)
            finally:
                depth[0] -= 1
            try:
                bound = signature.bind(*args, **kwargs)
                bound.apply_defaults()
                arguments = dict(bound.arguments)
            except TypeError:
                arguments = {"args": args, **kwargs}
            created = frozenset(op._id for op in graph.get_operations()[first:])  # noqa: SLF001 - creation ids
            calls.append(RecordedCall(api, arguments, result, created, user_location(traceback.extract_stack()[:-1])))
            return result

        return recorded

    for api in RECORDED_APIS:
        try:
            owner, name = _resolve(api)
        except AttributeError:
            continue
        original = getattr(owner, name, None)
        if callable(original):
            patched.append((owner, name, original, api))
    seen: dict[int, Any] = {}
    for owner, name, original, api in patched:
        seen.setdefault(id(original), wrap(f"tf.{api}", original))
        setattr(owner, name, seen[id(original)])
    base = tf.compat.v1.train.Optimizer
    original_apply, original_compute = base.apply_gradients, base.compute_gradients
    differentiated: list = []
    applying = [0]

    def compute_gradients(self, loss, *args, **kwargs):
        differentiated.append(loss)
        return original_compute(self, loss, *args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        grads_and_vars = list(grads_and_vars)
        optimizers.append(RecordedOptimizer(self, grads_and_vars, global_step,
                                            user_location(traceback.extract_stack()[:-1]),
                                            differentiated[-1] if differentiated else None, bool(applying[0])))
        applying[0] += 1
        try:
            return original_apply(self, grads_and_vars, global_step=global_step, name=name)
        finally:
            applying[0] -= 1

    base.apply_gradients, base.compute_gradients = apply_gradients, compute_gradients
    try:
        yield
    finally:
        base.apply_gradients, base.compute_gradients = original_apply, original_compute
        for owner, name, original, _ in patched:
            setattr(owner, name, original)


def placeholders_like(spec: Any, name: str) -> Any:
    """Placeholders with the structure, dtypes and shapes (batch dimension free) of an element spec."""
    if isinstance(spec, tf.TensorSpec):
        shape = spec.shape if spec.shape.rank is None else [None, *spec.shape.as_list()[1:]]
        return tf.compat.v1.placeholder(spec.dtype, shape, name=name)
    if isinstance(spec, dict):
        return {key: placeholders_like(value, f"{name}_{key}") for key, value in spec.items()}
    if isinstance(spec, (tuple, list)):
        return type(spec)(placeholders_like(value, f"{name}_{index}") for index, value in enumerate(spec))
    raise PortRefused([Problem("", f"the input gives a {type(spec).__name__} ({spec})",
                               "give dense tensors (or dicts / tuples of them) as features and labels")])


def call_model_fn(model_fn: SourceRef, features, labels, mode: str, params: dict) -> Any:
    accepted = inspect.signature(model_fn.function).parameters
    kwargs = {"features": features, "labels": labels, "mode": mode, "params": params,
              "config": tf.estimator.RunConfig()}
    if not any(p.kind == p.VAR_KEYWORD for p in accepted.values()):
        kwargs = {key: value for key, value in kwargs.items() if key in accepted}
    return model_fn.function(**kwargs)


def trace_mode(model_fn: SourceRef, mode: str, params: dict, element_spec: tuple) -> ModeTrace:
    """The model_fn's graph in `mode` ("train", "eval", "infer"); a raising model_fn is a `PortRefused`."""
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    graph = tf.Graph()
    calls: list[RecordedCall] = []
    optimizers: list[RecordedOptimizer] = []
    with graph.as_default():
        tf.compat.v1.set_random_seed(int(params.get("seed", 0) or 0))
        tf.compat.v1.train.get_or_create_global_step()
        features = placeholders_like(element_spec[0], "features")
        labels = placeholders_like(element_spec[1], "labels") if mode != "infer" and element_spec[1] is not None else None
        try:
            with recording(graph, calls, optimizers):
                spec = call_model_fn(model_fn, features, labels, mode, params)
        except Exception as error:
            raise ModelFnRaised.from_error(mode, error, model_fn.where) from error
    return ModeTrace(mode, graph, spec, features, labels, calls, optimizers)


class ModelFnRaised(PortRefused):
    """The model_fn raised while traced in one mode: where (``file:line``), the error, and what the user can do."""

    def __init__(self, mode: str, where: str, error: str, todo: str) -> None:
        self.mode, self.where, self.error, self.todo = mode, where, error, todo
        super().__init__([Problem(where, f"model_fn raised in {mode.upper()} mode: {error}", todo)])

    @classmethod
    def from_error(cls, mode: str, error: BaseException, fallback: str) -> ModelFnRaised:
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if is_user_file(frame.filename)]
        where = f"{relative(frames[-1].filename)}:{frames[-1].lineno}" if frames else fallback
        removed = explain(error, (frames[-1].line or "") if frames else "")
        if removed is not None:
            return cls(mode, where, removed[0], removed[1])
        return cls(mode, where, f"{type(error).__name__}: {error}",
                   f"make model_fn build its {mode.upper()} graph (run it alone with mode={mode!r})")


def merged(refusals: list[PortRefused]) -> list[Problem]:
    """The refusals' problems, one per place and error: a model_fn raising the same in every mode is one problem."""
    problems: list[Problem] = []
    modes: dict[tuple[str, str], list[str]] = {}
    first: dict[tuple[str, str], ModelFnRaised] = {}
    for refusal in refusals:
        if not isinstance(refusal, ModelFnRaised):
            problems += refusal.problems
            continue
        key = (refusal.where, refusal.error)
        modes.setdefault(key, []).append(refusal.mode.upper())
        first.setdefault(key, refusal)
    for key, raised in first.items():
        named = ", ".join(modes[key][:-1]) + " and " + modes[key][-1] if len(modes[key]) > 1 else modes[key][0]
        problems.append(Problem(raised.where, f"model_fn raised in {named} mode{'s' if len(modes[key]) > 1 else ''}: "
                                              f"{raised.error}", raised.todo))
    return problems
