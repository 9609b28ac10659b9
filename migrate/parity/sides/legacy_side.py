"""The legacy side of any pair: the user's `model_fn` in a real `tf.estimator.Estimator` (TF 2.15 only).

It is the reference. `prepare` builds the training graph once, runs its
initializers and saves that state as the step-0 checkpoint the Estimator then
restores (so the Estimator trains from exactly the weights the Keras model is
given); it also runs the model in PREDICT mode on the first batch. `train`
runs `Estimator.train` with the pair's hooks followed by `LossRecorderHook`,
which records the protocol events, each step's loss and every trainable
variable after step 1.
"""
from __future__ import annotations

import importlib.metadata
import inspect
import platform
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import tensorflow as tf

from migrate.core.protocol import make_event
from migrate.parity.mapping import Weight
from migrate.parity.pair import Pair, PairError
from migrate.parity.stages import LAYER_INPUT_ROWS, batch_fingerprint, batch_structure

Progress = Callable[[str], None]
LOSS_COLLECTION = "migrate_parity_loss"
NEVER = 10**9  # checkpoint/summary cadence that leaves only the step-0 and final checkpoints


def versions() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "tensorflow": tf.__version__,
        "tensorflow_estimator": importlib.metadata.version("tensorflow-estimator"),
        "keras": getattr(tf.keras, "__version__", "n/a"),
        "numpy": np.__version__,
    }


def call_model_fn(pair: Pair, features, labels, mode: str, params: dict, config=None):
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


def input_tensors(pair: Pair, name: str, params: dict):
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


def _constant_value(array: np.ndarray) -> float | None:
    flat = np.asarray(array).ravel()
    return float(flat[0]) if flat.size and np.all(flat == flat[0]) else None


def prepare(pair: Pair, params: dict, seed: int, workdir: Path) -> dict[str, Any]:
    """Initial variables, the step-0 checkpoint, the first batch and the PREDICT-mode outputs on it."""
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    model_dir = workdir / "model"
    model_dir.mkdir(parents=True, exist_ok=True)
    config = run_config(model_dir, seed)
    with tf.Graph().as_default():
        tf.compat.v1.set_random_seed(seed)
        global_step = tf.compat.v1.train.get_or_create_global_step()
        features, labels = input_tensors(pair, "train_input_fn", params)
        spec = call_model_fn(pair, features, labels, tf.estimator.ModeKeys.TRAIN, params, config)
        if spec.train_op is None or spec.loss is None:
            raise PairError(f"{pair.origin}: model_fn in TRAIN mode returned no train_op or no loss.")
        trainable = tf.compat.v1.trainable_variables()
        optimizer = tf1_optimizer_of(trainable, tf.compat.v1.global_variables())
        saver = tf.compat.v1.train.Saver(save_relative_paths=True)
        with tf.compat.v1.Session() as session:
            session.run([tf.compat.v1.global_variables_initializer(), tf.compat.v1.local_variables_initializer(),
                         tf.compat.v1.tables_initializer()])
            values = session.run({v.op.name: v for v in trainable})
            try:
                first_batch = session.run((features, labels))
            except tf.errors.OutOfRangeError as error:
                raise PairError(f"{pair.origin}: train_input_fn(params) gives no batch at all.") from error
            checkpoint = saver.save(session, str(model_dir / "model.ckpt"), global_step=global_step)
    weights = [Weight(v.op.name, tuple(v.shape.as_list()), v.dtype.base_dtype.name) for v in trainable]
    return {
        "model_dir": model_dir,
        "checkpoint": checkpoint,
        "initial_weights": values,
        "first_batch": first_batch,
        "record": {
            "variables": [{"name": w.name, "shape": list(w.shape), "dtype": w.dtype} for w in weights],
            "constant_init": {name: _constant_value(value) for name, value in values.items()},
            "first_batch": {"fingerprint": batch_fingerprint(first_batch), "structure": batch_structure(first_batch)},
            "forward": forward(pair, params, seed, config, first_batch[0], checkpoint),
            "optimizer": optimizer,
            "versions": versions(),
        },
    }


def forward(pair: Pair, params: dict, seed: int, config, features, checkpoint: str) -> dict[str, Any] | None:
    """The model_fn's PREDICT-mode predictions on `features` with the step-0 weights (None if it gives none)."""
    with tf.Graph().as_default():
        tf.compat.v1.set_random_seed(seed)
        tf.compat.v1.train.get_or_create_global_step()
        # fed through placeholders, not embedded as constants: Grappler would fold the whole network at optimisation
        # time with other kernels than the ones training uses
        placeholders = tf.nest.map_structure(
            lambda array: tf.compat.v1.placeholder(tf.as_dtype(np.asarray(array).dtype), np.shape(array)), features
        )
        spec = call_model_fn(pair, placeholders, None, tf.estimator.ModeKeys.PREDICT, params, config)
        if spec.predictions is None:
            return None
        stored = set(dict(tf.train.list_variables(checkpoint)))
        restorable = [v for v in tf.compat.v1.global_variables() if checkpoint_name(v) in stored]
        with tf.compat.v1.Session() as session:
            session.run([tf.compat.v1.global_variables_initializer(), tf.compat.v1.local_variables_initializer(),
                         tf.compat.v1.tables_initializer()])
            tf.compat.v1.train.Saver(restorable).restore(session, checkpoint)
            feed = dict(zip(tf.nest.flatten(placeholders), tf.nest.flatten(features)))
            outputs = session.run(spec.predictions, feed_dict=feed)
            try:  # only a diagnosis for a failed forward stage: a graph it cannot fetch from must not stop the run
                inputs = session.run(layer_inputs(tf.compat.v1.trainable_variables()), feed_dict=feed)
            except (tf.errors.OpError, ValueError, TypeError):
                inputs = {}
    return {"outputs": outputs, "layer_inputs": {name: value[:LAYER_INPUT_ROWS] for name, value in inputs.items()}}


# ops that read a kernel (its other operand is the layer's input) and ops a read passes through on the way
KERNEL_CONSUMERS = frozenset({"MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "Conv2D", "Conv3D",
                              "DepthwiseConv2dNative", "Conv2DBackpropInput", "ResourceGather", "GatherV2"})
READ_OPS = frozenset({"ReadVariableOp", "Identity", "Cast", "VarHandleOp", "VariableV2", "ExpandDims", "Reshape"})


def layer_inputs(variables) -> dict[str, tf.Tensor]:
    """TF1 variable name → the tensor its layer multiplies it with (a MatMul/conv's other operand, a gather's ids).

    Kernels only (rank ≥ 2), outside loops (a `dynamic_rnn` body cannot be fetched). The parity
    forward stage compares these with the Keras layers' inputs to say *where* outputs start to differ.
    """
    found = {}
    for variable in variables:
        if variable.shape.rank is None or variable.shape.rank < 2:
            continue
        frontier, seen = [variable.op], set()
        while frontier and variable.op.name not in found:
            op = frontier.pop(0)
            for output in op.outputs:
                for consumer in output.consumers():
                    if consumer in seen:
                        continue
                    seen.add(consumer)
                    if consumer.type in KERNEL_CONSUMERS and consumer._get_control_flow_context() is None:
                        others = [tensor for tensor in consumer.inputs if tensor is not output]
                        if consumer.type in ("ResourceGather", "GatherV2"):
                            others = others[:1]
                        if len(others) == 1 or consumer.type in ("ResourceGather", "GatherV2"):
                            found[variable.op.name] = others[0]
                            break
                    elif consumer.type in READ_OPS:
                        frontier.append(consumer)
                if variable.op.name in found:
                    break
    return found


TF1_SLOTS = {"Momentum": "MomentumOptimizer", "Adam": "AdamOptimizer", "Adagrad": "AdagradOptimizer",
             "RMSProp": "RMSPropOptimizer", "Ftrl": "FtrlOptimizer", "Adadelta": "AdadeltaOptimizer",
             "AdagradDA": "AdagradDAOptimizer", "ProximalAdagrad": "ProximalAdagradOptimizer"}
"""A TF1 optimizer's slot suffix (`<variable>/Momentum`) → its class."""


def tf1_optimizer_of(trainable, global_variables) -> str | None:
    """The TF1 optimizer class the train graph uses, read from its slot variables; None without slots (SGD)."""
    names = {variable.op.name for variable in trainable}
    for variable in global_variables:
        owner, _, slot = variable.op.name.rpartition("/")
        if owner in names:
            suffix = slot.rstrip("0123456789").rstrip("_") or slot
            if suffix in TF1_SLOTS:
                return TF1_SLOTS[suffix]
    return None


def checkpoint_name(variable) -> str:
    """The name a Saver stores a variable under: a partitioned variable's slices share the full name."""
    info = getattr(variable, "_save_slice_info", None)
    return info.full_name if info is not None else variable.op.name


class LossRecorderHook(tf.compat.v1.train.SessionRunHook):
    """Records the protocol events, each step's loss, and every trainable variable after the first step."""

    def __init__(self, progress: Progress, total: int) -> None:
        self.events: list[dict] = []
        self.after_first_step: dict[str, np.ndarray] = {}
        self.progress, self.total, self.every = progress, total, max(1, total // 10)
        self.step = 0

    def begin(self) -> None:
        losses = tf.compat.v1.get_collection(LOSS_COLLECTION)
        self._loss = losses[-1]
        self._global_step = tf.compat.v1.train.get_global_step()
        self._trainable = {v.op.name: v for v in tf.compat.v1.trainable_variables()}
        self.events.append(make_event("train", "begin"))

    def after_create_session(self, session, coord) -> None:
        self.step = self.start = int(session.run(self._global_step))
        self.events.append(make_event("train", "after_create_session", self.step))

    def before_run(self, run_context):
        self.events.append(make_event("train", "before_run", self.step + 1))
        return tf.compat.v1.train.SessionRunArgs(self._loss)

    def after_run(self, run_context, run_values) -> None:
        self.step += 1
        loss = float(run_values.results)
        self.events.append(make_event("train", "after_run", self.step, loss))
        if self.step == self.start + 1:
            self.after_first_step = run_context.session.run(self._trainable)
        if self.step % self.every == 0 or self.step == self.total:
            self.progress(f"  legacy step {self.step}/{self.total}  loss {loss:.6f}")
        if run_context.stop_requested:
            self.events.append(make_event("train", "request_stop", self.step))

    def end(self, session) -> None:
        self.events.append(make_event("train", "end", self.step))


def recording_model_fn(pair: Pair) -> Callable:
    """The pair's model_fn, its training loss put where `LossRecorderHook` finds it."""

    def model_fn(features, labels, mode, params, config):
        spec = call_model_fn(pair, features, labels, mode, params, config)
        if mode == tf.estimator.ModeKeys.TRAIN:
            tf.compat.v1.add_to_collection(LOSS_COLLECTION, spec.loss)
        return spec

    return model_fn


def estimator(pair: Pair, params: dict, seed: int, model_dir: Path) -> tf.estimator.Estimator:
    return tf.estimator.Estimator(recording_model_fn(pair), config=run_config(model_dir, seed), params=params)


def train(pair: Pair, params: dict, seed: int, prepared: dict, steps: int, progress: Progress) -> dict[str, Any]:
    """Train `steps` steps from the step-0 checkpoint: losses, events, variables after step 1."""
    hooks = list(pair.call("legacy_hooks", params)) if pair.has("legacy_hooks") else []
    recorder = LossRecorderHook(progress, steps)
    nan_at = None
    try:
        estimator(pair, params, seed, prepared["model_dir"]).train(
            lambda: pair.call("train_input_fn", params), hooks=[*hooks, recorder], max_steps=steps
        )
    except tf.compat.v1.train.NanLossDuringTrainingError:
        nan_at = recorder.step
    losses = {event["step"]: event["loss"] for event in recorder.events if event["event"] == "after_run"}
    return {
        "losses": {str(step): loss for step, loss in sorted(losses.items())},
        "train_events": recorder.events,
        "after_first_step": recorder.after_first_step,
        "steps_run": len(losses),
        "nan_at": nan_at,
    }


def evaluate(pair: Pair, params: dict, seed: int, prepared: dict) -> dict[str, float]:
    metrics = estimator(pair, params, seed, prepared["model_dir"]).evaluate(lambda: pair.call("eval_input_fn", params))
    return {key: float(value) for key, value in metrics.items() if np.ndim(value) == 0}


def scenarios(pair: Pair, params: dict, workdir: Path, names: tuple[str, ...], progress: Progress) -> dict[str, list]:
    if not pair.has("legacy_scenarios") or not names:
        return {}
    progress(f"  legacy scenarios: {', '.join(names)}")
    events = pair.call("legacy_scenarios", {**params, "scenarios": list(names)}, workdir / "scenarios")
    return {name: events[name] for name in names if name in events}
