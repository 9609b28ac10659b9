"""The legacy side of any pair: the user's `model_fn` in a real `tf.estimator.Estimator` (TF 2.15 only).

It is the reference. `prepare` builds the training graph once, runs its
initializers and saves that state as the step-0 checkpoint the Estimator then
restores (so the Estimator trains from exactly the weights the Keras model is
given); it also runs the model in PREDICT mode on the first batch. `train`
runs `Estimator.train` with the pair's hooks followed by `LossRecorderHook`,
which records the protocol events, each step's loss and every trainable
variable and state variable (batch-norm moving statistics: the non-trainable
variables the PREDICT graph reads) after the first step that updates them.
Every random source is seeded before each graph is built (`seeding`), and the
initial values are drawn twice to name any initializer the seeds do not reach.
"""
from __future__ import annotations

import importlib.metadata
import inspect
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import tensorflow as tf

from migrate.core.arrays import Array
from migrate.core.mapping import Weight
from migrate.core.side_trace import FirstBatch, Forward, SideTrace
from migrate.parity.options import Progress
from migrate.parity.pair import Pair, PairError
from migrate.parity.sides.modern_side import versions
from migrate.parity.sides.seeding import seed_everything
from migrate.parity.sides.step_recorder import Digest, Snapshots, StepRecorder
from migrate.parity.stages import LAYER_INPUT_ROWS, batch_fingerprint, batch_structure, constant_value

LOSS_COLLECTION = "migrate_parity_loss"
NEVER = 10**9  # checkpoint/summary cadence that leaves only the step-0 and final checkpoints


class Prepared(NamedTuple):
    """The legacy side ready to train: where its step-0 checkpoint is, the initial values (trainable and state, by
    TF1 name), the first batch, the state variables' names, and the trace so far (what stages 1–2 read)."""

    model_dir: Path
    checkpoint: str
    initial_weights: dict[str, Array]
    first_batch: Any
    state_names: list[str]
    trace: SideTrace


def call_model_fn(pair: Pair, features: Any, labels: Any, mode: str, params: dict[str, Any], config: Any = None) -> Any:
    """Call the pair's model_fn with the arguments it declares, as Estimator does."""
    accepted = inspect.signature(pair.functions["model_fn"]).parameters
    kwargs = {"features": features, "labels": labels, "mode": mode, "params": params, "config": config}
    if not any(p.kind == p.VAR_KEYWORD for p in accepted.values()):
        kwargs = {key: value for key, value in kwargs.items() if key in accepted}
    try:
        spec = pair.functions["model_fn"](**kwargs)
    except Exception as error:
        raise PairError(
            f"{pair.origin}: model_fn(features, labels, mode={mode!r}, params) raised {type(error).__name__}: {error}. "
            "Fix model_fn in the pair file."
        ) from error
    if not isinstance(spec, tf.estimator.EstimatorSpec):
        if callable(getattr(spec, "as_estimator_spec", None)):  # a TPUEstimatorSpec
            return spec.as_estimator_spec()
        raise PairError(
            f"{pair.origin}: model_fn(features, labels, mode={mode!r}, params) returned a {type(spec).__name__}, not a "
            "tf.estimator.EstimatorSpec: return tf.estimator.EstimatorSpec(mode, loss=..., train_op=..., "
            "predictions=...) from model_fn."
        )
    return spec


def input_tensors(pair: Pair, name: str, params: dict[str, Any]) -> tuple[Any, Any]:
    """(features, labels) from an Estimator input function: a Dataset or a tuple of tensors."""
    result = pair.call(name, params)
    if isinstance(result, tf.data.Dataset):
        result = tf.compat.v1.data.make_one_shot_iterator(result).get_next()
    if isinstance(result, (tuple, list)) and len(result) == 2:
        return result[0], result[1]
    raise PairError(f"{pair.origin}: {name}(params) must return (features, labels) or a tf.data.Dataset of them.")


def run_config(directory: Path, seed: int) -> tf.estimator.RunConfig:
    return tf.estimator.RunConfig(
        model_dir=str(directory), tf_random_seed=seed, save_checkpoints_steps=NEVER, save_summary_steps=NEVER,
        log_step_count_steps=None, keep_checkpoint_max=None,
    )


def seeded_global_step(seed: int) -> Any:
    """Every random source seeded for the graph being built, and its global step."""
    seed_everything(seed)
    tf.compat.v1.set_random_seed(seed)
    return tf.compat.v1.train.get_or_create_global_step()


def train_graph(pair: Pair, params: dict[str, Any], seed: int, config: Any) -> tuple[Any, Any, Any, Any]:
    """The model_fn's TRAIN graph, seeded, in the current graph: its global step, input (features, labels) and spec."""
    global_step = seeded_global_step(seed)
    features, labels = input_tensors(pair, "train_input_fn", params)
    return global_step, features, labels, call_model_fn(pair, features, labels, tf.estimator.ModeKeys.TRAIN, params, config)


def initialize(session: Any) -> None:
    session.run([tf.compat.v1.global_variables_initializer(), tf.compat.v1.local_variables_initializer(),
                 tf.compat.v1.tables_initializer()])


def draw_initial_values(pair: Pair, params: dict[str, Any], seed: int, config: Any,
                        state_names: list[str]) -> dict[str, Array]:
    """The trainable and state variables' initial values from a fresh TRAIN graph, every random source seeded."""
    with tf.Graph().as_default():
        train_graph(pair, params, seed, config)
        tracked = tracked_variables(state_names)
        with tf.compat.v1.Session() as session:
            initialize(session)
            values: dict[str, Array] = session.run(tracked)
            return values


def tracked_variables(state_names: list[str]) -> dict[str, Any]:
    """The current graph's trainable variables, then its state variables, by name."""
    tracked = {v.op.name: v for v in tf.compat.v1.trainable_variables()}
    by_name = {v.op.name: v for v in tf.compat.v1.global_variables()}
    tracked.update({name: by_name[name] for name in state_names if name in by_name and name not in tracked})
    return tracked


def prepare(pair: Pair, params: dict[str, Any], seed: int, workdir: Path) -> Prepared:
    """Initial variables, the step-0 checkpoint, the first batch and the PREDICT-mode outputs on it."""
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    model_dir = workdir / "model"
    model_dir.mkdir(parents=True, exist_ok=True)
    config = run_config(model_dir, seed)
    with tf.Graph().as_default() as graph:
        global_step, features, labels, spec = train_graph(pair, params, seed, config)
        if spec.train_op is None or spec.loss is None:
            raise PairError(f"{pair.origin}: model_fn in TRAIN mode returned no train_op or no loss.")
        trainable = tf.compat.v1.trainable_variables()
        optimizers = tf1_optimizers_of(graph, trainable, tf.compat.v1.global_variables())
        saver = tf.compat.v1.train.Saver(save_relative_paths=True)
        with tf.compat.v1.Session() as session:
            initialize(session)
            try:
                first_batch = session.run((features, labels))
            except tf.errors.OutOfRangeError as error:
                raise PairError(f"{pair.origin}: train_input_fn(params) gives no batch at all.") from error
            checkpoint = saver.save(session, str(model_dir / "model.ckpt"), global_step=global_step)
            predicted, state_names = forward(pair, params, seed, config, first_batch[0], checkpoint)
            tracked = tracked_variables(state_names)
            values = session.run(tracked)
    state = [weight_of(name, variable) for name, variable in list(tracked.items())[len(trainable):]]
    redrawn = draw_initial_values(pair, params, seed, config, state_names)
    unseeded = [name for name, value in values.items() if name in redrawn and not np.array_equal(value, redrawn[name])]
    trace = SideTrace(
        "legacy", versions={**versions(), "tensorflow_estimator": importlib.metadata.version("tensorflow-estimator")},
        forward=predicted, variables=[weight_of(v.op.name, v) for v in trainable], state=state,
        constant_init={name: constant_value(value) for name, value in values.items()},
        first_batch=FirstBatch(batch_fingerprint(first_batch), batch_structure(first_batch)),
        optimizers=optimizers, unseeded=unseeded,
    )
    return Prepared(model_dir, checkpoint, values, first_batch, [weight.name for weight in state], trace)


def weight_of(name: str, variable: Any) -> Weight:
    return Weight(name, tuple(variable.shape.as_list()), variable.dtype.base_dtype.name)


def forward(pair: Pair, params: dict[str, Any], seed: int, config: Any, features: Any,
            checkpoint: str) -> tuple[Forward | None, list[str]]:
    """The model_fn's PREDICT-mode predictions on `features` with the step-0 weights (None if it gives none),
    and the names of its state variables: the non-trainable variables the PREDICT graph creates (batch-norm
    moving statistics; not the optimizer's, which only the TRAIN graph has)."""
    with tf.Graph().as_default():
        global_step = seeded_global_step(seed)
        # fed through placeholders, not embedded as constants: Grappler would fold the whole network at optimisation
        # time with other kernels than the ones training uses
        placeholders = tf.nest.map_structure(
            lambda array: tf.compat.v1.placeholder(tf.as_dtype(np.asarray(array).dtype), np.shape(array)), features
        )
        spec = call_model_fn(pair, placeholders, None, tf.estimator.ModeKeys.PREDICT, params, config)
        trainable = {v.op.name for v in tf.compat.v1.trainable_variables()}
        state_names = [v.op.name for v in tf.compat.v1.global_variables()
                       if v.op.name not in trainable and v is not global_step and v.dtype.base_dtype.is_floating]
        if spec.predictions is None:
            return None, state_names
        stored = set(dict(tf.train.list_variables(checkpoint)))
        restorable = [v for v in tf.compat.v1.global_variables() if checkpoint_name(v) in stored]
        with tf.compat.v1.Session() as session:
            initialize(session)
            tf.compat.v1.train.Saver(restorable).restore(session, checkpoint)
            feed = dict(zip(tf.nest.flatten(placeholders), tf.nest.flatten(features)))
            outputs = session.run(spec.predictions, feed_dict=feed)
            try:  # only a diagnosis for a failed forward stage: a graph it cannot fetch from must not stop the run
                inputs = session.run(layer_inputs(tf.compat.v1.trainable_variables()), feed_dict=feed)
            except (tf.errors.OpError, ValueError, TypeError):
                inputs = {}
    return Forward.of(outputs, {name: value[:LAYER_INPUT_ROWS] for name, value in inputs.items()}), state_names


# ops that read a kernel (its other operand is the layer's input) and ops a read passes through on the way
KERNEL_CONSUMERS = frozenset({"MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "Conv2D", "Conv3D",
                              "DepthwiseConv2dNative", "Conv2DBackpropInput", "ResourceGather", "GatherV2"})
READ_OPS = frozenset({"ReadVariableOp", "Identity", "Cast", "VarHandleOp", "VariableV2", "ExpandDims", "Reshape"})


def layer_inputs(variables: list[Any]) -> dict[str, Any]:
    """TF1 variable name → the tensor its layer multiplies it with (a MatMul/conv's other operand, a gather's ids).

    Kernels only (rank ≥ 2), outside loops (a `dynamic_rnn` body cannot be fetched). The parity
    forward stage compares these with the Keras layers' inputs to say *where* outputs start to differ.
    """
    kernels = {variable.op.name: layer_input(variable) for variable in variables
               if variable.shape.rank is not None and variable.shape.rank >= 2}
    return {name: tensor for name, tensor in kernels.items() if tensor is not None}


def layer_input(variable: Any) -> Any:
    """The first kernel consumer's other operand (a gather's: its ids), reached through reads; None if none is."""
    frontier, seen = [variable.op], set()
    while frontier:
        for output in frontier.pop(0).outputs:
            for consumer in output.consumers():
                if consumer in seen:
                    continue
                seen.add(consumer)
                if consumer.type in KERNEL_CONSUMERS and consumer._get_control_flow_context() is None:
                    others = [tensor for tensor in consumer.inputs if tensor is not output]
                    if len(others) == 1 or consumer.type in ("ResourceGather", "GatherV2"):
                        return others[0]
                elif consumer.type in READ_OPS:
                    frontier.append(consumer)
    return None


TF1_SLOTS = {"Momentum": "MomentumOptimizer", "Adam": "AdamOptimizer", "Adagrad": "AdagradOptimizer",
             "RMSProp": "RMSPropOptimizer", "Ftrl": "FtrlOptimizer", "Adadelta": "AdadeltaOptimizer",
             "AdagradDA": "AdagradDAOptimizer", "ProximalAdagrad": "ProximalAdagradOptimizer"}
"""A TF1 optimizer's slot suffix (`<variable>/Momentum`) → its class."""

TF1_KERNELS = {"GradientDescent": "GradientDescentOptimizer", "Momentum": "MomentumOptimizer",
               "KerasMomentum": "MomentumOptimizer", "Adam": "AdamOptimizer", "AdamWithAmsgrad": "AdamOptimizer",
               "Adagrad": "AdagradOptimizer", "AdagradV2": "AdagradOptimizer", "AdagradDA": "AdagradDAOptimizer",
               "RMSProp": "RMSPropOptimizer", "CenteredRMSProp": "RMSPropOptimizer", "Ftrl": "FtrlOptimizer",
               "FtrlV2": "FtrlOptimizer", "Adadelta": "AdadeltaOptimizer", "ProximalAdagrad": "ProximalAdagradOptimizer",
               "ProximalGradientDescent": "ProximalGradientDescentOptimizer", "AdaMax": "AdaMax"}
"""The update kernel a TF1 optimizer runs (`ResourceApplyAdam`, `SparseApplyFtrlV2` … without prefix) → its class."""


def tf1_optimizers_of(graph: Any, trainable: list[Any], global_variables: list[Any]) -> list[str]:
    """Every TF1 optimizer class the train graph updates variables with, in the order it was built.

    Read from the update kernels (`ApplyGradientDescent`, `ResourceApplyAdam` …), so plain gradient descent
    is found too; a graph whose updates use no kernel (sparse-only updates) falls back to the slots.
    """
    kernels = [op.type.removeprefix("Resource").removeprefix("Sparse").removeprefix("Apply") for op in graph.get_operations()
               if op.type.replace("Resource", "").replace("Sparse", "").startswith("Apply")]
    found = list(dict.fromkeys(TF1_KERNELS[kernel] for kernel in kernels if kernel in TF1_KERNELS))
    if found:
        return found
    names = {variable.op.name for variable in trainable}
    slots = [slot.rstrip("0123456789").rstrip("_") or slot
             for owner, _, slot in (variable.op.name.rpartition("/") for variable in global_variables) if owner in names]
    return list(dict.fromkeys(TF1_SLOTS[slot] for slot in slots if slot in TF1_SLOTS))


def checkpoint_name(variable: Any) -> str:
    """The name a Saver stores a variable under: a partitioned variable's slices share the full name."""
    info = getattr(variable, "_save_slice_info", None)
    return str(info.full_name if info is not None else variable.op.name)


class LossRecorderHook(tf.compat.v1.train.SessionRunHook):
    """Records the training run through a `StepRecorder`: events, each step's loss, the first update, snapshots.

    Tracked are the trainable variables and the state variables named in `state_names`.
    """

    def __init__(self, recorder: StepRecorder, state_names: Sequence[str] = ()) -> None:
        self.recorder, self.state_names = recorder, list(state_names)

    def begin(self) -> None:
        self._loss = tf.compat.v1.get_collection(LOSS_COLLECTION)[-1]
        self._global_step = tf.compat.v1.train.get_global_step()
        self._tracked = tracked_variables(self.state_names)
        self._trainable = [v.op.name for v in tf.compat.v1.trainable_variables()]
        self.recorder.begin()

    def after_create_session(self, session: Any, coord: Any) -> None:
        self.recorder.session_created(int(session.run(self._global_step)), session.run(self._tracked), self._trainable)

    def before_run(self, run_context: Any) -> Any:
        self.recorder.before_run()
        return tf.compat.v1.train.SessionRunArgs(self._loss)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        self.recorder.after_run(float(run_values.results), lambda: run_context.session.run(self._tracked),
                                run_context.stop_requested)

    def end(self, session: Any) -> None:
        self.recorder.end()


def estimator(pair: Pair, params: dict[str, Any], seed: int, model_dir: Path) -> Any:
    """An Estimator of the pair's model_fn, every random source seeded first, its training loss put where
    `LossRecorderHook` finds it."""

    def model_fn(features: Any, labels: Any, mode: str, params: dict[str, Any], config: Any) -> Any:
        seed_everything(seed)
        spec = call_model_fn(pair, features, labels, mode, params, config)
        if mode == tf.estimator.ModeKeys.TRAIN:
            tf.compat.v1.add_to_collection(LOSS_COLLECTION, spec.loss)
        return spec

    return tf.estimator.Estimator(model_fn, config=run_config(model_dir, seed), params=params)


def train(pair: Pair, params: dict[str, Any], seed: int, prepared: Prepared, steps: int, progress: Progress,
          trace: SideTrace, capture: tuple[int, ...] = (), model_dir: Path | None = None,
          digest: Digest | None = None) -> Snapshots:
    """Train `steps` steps from the step-0 checkpoint, the run recorded into `trace` (losses, events, the variables
    after the first update); give the snapshots after each step in `capture` (with `digest`, its digest of every
    step). `model_dir` other than the prepared one starts there from the same step-0 checkpoint (a replay)."""
    if model_dir is not None:
        model_dir.mkdir(parents=True, exist_ok=True)
        tf.compat.v1.train.update_checkpoint_state(str(model_dir), prepared.checkpoint)
    hooks = list(pair.call("legacy_hooks", params)) if pair.has("legacy_hooks") else []
    recorder = StepRecorder("legacy", progress, steps, capture, digest)
    nan_at = None
    try:
        estimator(pair, params, seed, model_dir or prepared.model_dir).train(
            lambda: pair.call("train_input_fn", params), hooks=[*hooks, LossRecorderHook(recorder, prepared.state_names)],
            max_steps=steps,
        )
    except tf.compat.v1.train.NanLossDuringTrainingError:
        nan_at = recorder.step
    return recorder.fill(trace, nan_at)


def evaluate(pair: Pair, params: dict[str, Any], seed: int, model_dir: Path) -> dict[str, float]:
    """The scalar metrics of `eval_input_fn` on the newest checkpoint in `model_dir`."""
    metrics = estimator(pair, params, seed, model_dir).evaluate(lambda: pair.call("eval_input_fn", params))
    return {key: float(value) for key, value in metrics.items() if np.ndim(value) == 0}
