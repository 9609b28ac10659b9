"""One `MultiWorkerMirroredStrategy` worker training the user's pair: ``python -m modern.distributed.pair --run RUN.json ...``.

The pair's Keras model under `MultiWorkerMirroredStrategy`. The role comes
from ``TF_CONFIG`` (``{"cluster": {"worker": [...]}, "task": {"type":
"worker", "index": i}}``); worker 0 is the chief. Every worker:

1. builds the model with the pair's `build_model` under the strategy and
   gives it the legacy chief's step-0 values (``--initial-weights``, mapped
   by the pair's `variable_map` or inferred, as the single-process engine
   maps them); `BackupAndRestore` (`modern.distributed.backup`) backs the
   training state up every ``--save-checkpoints-steps`` and restores it when
   the cluster is restarted after a fault;
2. feeds its slice of each global batch of `train_dataset`: worker i of N
   gets rows ``[i*B/N, (i+1)*B/N)`` of global batch s at step s — what
   `legacy.distributed.pair` feeds — s counted from the global step
   restored: Keras restores no input position, so global step s always
   trains on global batch s;
3. trains with `fit`, the callbacks of `modern/callbacks/`
   (`CheckpointSaver`, `StepCounter`, `SummarySaver`, `LoggingTensor`, which
   write and log on the chief only) and `StopAtStep` (whatever epoch Keras
   resumes at, every worker stops after the same step);
   the model's train step is wrapped so it reports ``step_loss``: the mean
   loss of the global batch, all-reduced (its `compute_loss` value, which
   Keras scales by 1/N under a strategy for a ``sum_over_batch_size`` loss
   and the model must scale itself for a SUM one (`modern.replicas`),
   summed over the workers; or its own ``step_loss``, averaged), the same
   on every worker;
4. writes ``--progress`` per step and ``--trace`` at the end, on the chief
   with the metrics of `eval_dataset` (the trained weights in a model built
   outside the strategy, evaluated as the single-process engine does).

Exit codes (`migrate.core.role_program`): 0 done, 2 bad input (``TF_CONFIG``, flags, pair, a port taken).
"""
from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import keras
import numpy as np
import tensorflow as tf

from migrate.core import role_program
from migrate.core.mapping import Weight
from migrate.core.progress_file import ProgressFile
from migrate.core.side_trace import Role, write_side_trace
from migrate.core.tf_config import task_of
from migrate.parity.distributed.pair_run import INITIAL_STATE_KEY, INITIAL_TRAINABLE_KEY, PairRun
from migrate.parity.pair import Pair, PairError
from migrate.parity.run import map_both
from migrate.parity.sides.keras_training import LOSS_NOT_REPORTED, optimizers_of
from migrate.parity.sides.modern_side import ModernSide
from migrate.parity.stages import constant_value
from modern.callbacks.stop_at_step import StopAtStep
from modern.distributed.backup import BACKUP_DIRNAME, backup_callback, backup_exists, fit_layout, keras_major
from modern.distributed.recorded_callbacks import RecordedCallbacks


def role_from_tf_config(environ: dict[str, str]) -> tuple[str, int, dict[str, list[str]]]:
    """(task type, index, cluster) from ``TF_CONFIG``; a `TfConfigError` names what is missing."""
    return task_of(environ, ("worker",), "MultiWorkerMirroredStrategy needs at least one worker.")


def trace_callback(record: role_program.RoleRecord, begun: dict[str, int]) -> Any:
    """A Keras callback keeping the step training starts at (after any restore: the data position) and recording
    each global batch's mean loss."""
    class Trace(keras.callbacks.Callback):
        def on_train_begin(self, logs: dict[str, Any] | None = None) -> None:
            begun["step"] = int(self.model.optimizer.iterations.numpy())

        def on_train_batch_end(self, batch: int, logs: dict[str, Any] | None = None) -> None:
            step_loss = float(np.asarray((logs or {})["step_loss"]).reshape(()))
            record.loss(int(self.model.optimizer.iterations.numpy()), step_loss)

    return Trace()


def configure(parser: argparse.ArgumentParser) -> None:
    """The flags of a trainer of the pair (this MWMS worker, or `pair_ps`'s coordinator)."""
    role_program.add_role_flags(parser)
    parser.add_argument("--initial-weights", type=Path, help="the legacy chief's step-0 variables (.npz)")


def loss_reader(model: Any) -> Callable[[dict[str, Any]], tuple[Any, bool]]:
    """Wrap `model.compute_loss` so the values it computes are kept, and return the reader of a train step's loss.

    Read once after each step, the reader gives the step's loss as a float32
    scalar and whether it is the model's own ``step_loss`` log (else the
    step's last `compute_loss` value); a step that reports neither is a
    `PairError` (the rule of the single-process engine).
    """
    computed: list[Any] = []
    compute_loss = model.compute_loss

    def recording_compute_loss(*args: Any, **kwargs: Any) -> Any:
        computed.append(compute_loss(*args, **kwargs))
        return computed[-1]

    def read(logs: dict[str, Any]) -> tuple[Any, bool]:
        own = "step_loss" in logs
        if not own and not computed:
            raise PairError(LOSS_NOT_REPORTED)
        loss = tf.cast(tf.reshape(logs["step_loss"] if own else computed[-1], []), tf.float32)
        computed.clear()
        return loss, own

    model.compute_loss = recording_compute_loss
    return read


def report_global_step_loss(model: Any) -> None:
    """Wrap `model`'s train step so its logs carry ``step_loss``: the global batch's mean loss, on every worker.

    Keras 2.15 reduces logs across workers with ``sum`` unless asked for
    ``first``; Keras 3 with ``mean`` over a rank-1 value: the all-reduced
    value is made the same either way.
    """
    keras_3 = keras_major() == 3
    read_loss, train_step = loss_reader(model), model.train_step

    def reporting_train_step(data: Any) -> dict[str, Any]:
        logs = dict(train_step(data))
        context = tf.distribute.get_replica_context()
        replicas = context.num_replicas_in_sync
        loss, own = read_loss(logs)
        share = loss / float(replicas) if own else loss  # compute_loss is scaled by 1/replicas (Keras or the model)
        logs["step_loss"] = context.all_reduce(tf.distribute.ReduceOp.SUM, share) if replicas > 1 else share
        if keras_3 and replicas > 1:
            logs = {key: tf.reshape(value, [1]) if value.shape.rank == 0 else value for key, value in logs.items()}
        return logs

    model.train_step = reporting_train_step
    if hasattr(model, "distribute_reduction_method"):
        model.distribute_reduction_method = "first"


def initial_weights_from(path: Path) -> tuple[dict[str, np.ndarray], list[Any], list[Any]]:
    """(values by TF1 name, trainable `Weight`s, state `Weight`s) of the legacy chief's step-0 file."""
    with np.load(path) as stored:
        values = {name: stored[name] for name in stored.files if name not in (INITIAL_TRAINABLE_KEY, INITIAL_STATE_KEY)}
        trainable, state = list(stored[INITIAL_TRAINABLE_KEY]), list(stored[INITIAL_STATE_KEY])

    def weights(names: list[str]) -> list[Any]:
        return [Weight(str(name), tuple(values[name].shape), values[name].dtype.name) for name in names]

    return values, weights(trainable), weights(state)


def give_initial_weights(side: Any, pair: Pair, path: Path) -> None:
    """Map the legacy step-0 values onto the Keras weights and assign them (on every replica)."""
    values, trainable, state = initial_weights_from(path)
    constants = {name: constant_value(value) for name, value in values.items()}
    matches, side.state_matches, _ = map_both(pair, trainable, state, constants, side)
    side.transfer(matches, values)


def built_side(pair: Pair, params: dict[str, Any]) -> Any:
    """The pair's `ModernSide`: its compiled model built on the first batch, its optimizers' variables made (a
    checkpoint or backup restores into them); in the caller's strategy scope, if any."""
    side = ModernSide(pair, params, int(params.get("seed", 0)))
    side.ensure_built(side.first_batch()[0])
    optimizers = optimizers_of(side.model)
    if len(optimizers) == 1 and hasattr(optimizers[0], "build"):  # (several: each builds for its own variables)
        optimizers[0].build(side.model.trainable_variables)
    return side


def build_side(pair: Pair, params: dict[str, Any], strategy: Any, initial_weights: Path | None) -> Any:
    """The pair's compiled model under `strategy`, built on the first batch, holding the legacy initial values."""
    with strategy.scope():
        side = built_side(pair, params)
    if initial_weights is not None:
        give_initial_weights(side, pair, initial_weights)
    report_global_step_loss(side.model)
    if hasattr(side.model, "_maybe_symbolic_build"):
        # Keras 3 would first pull one distributed batch to build the (already built) model symbolically, before
        # `BackupAndRestore` restored the step the dataset starts at, and its reduce of that batch fails under
        # MultiWorkerMirroredStrategy
        side.model._maybe_symbolic_build = lambda *args, **kwargs: None
    return side


def worker_dataset(pair: Pair, params: dict[str, Any], first_step: Callable[[], int], stop: int, worker: int,
                   workers: int) -> Any:
    """This worker's rows of global batches first_step() … stop-1 of `train_dataset`.

    `first_step` is called when the iterator yields its first element, inside
    `fit` after `BackupAndRestore` restored the global step, so a resumed run
    continues at the batch of the step it resumes at. It must return a value
    fixed in `on_train_begin`: reading ``optimizer.iterations`` from the
    generator itself raced with the first step (it read 1 on Keras 2.15). `build_side` checked already that
    `train_dataset` gives a `tf.data.Dataset` (`ModernSide.first_batch`).
    """
    dataset = pair.call("train_dataset", params)

    def rows(tensor: Any) -> Any:
        local = tf.shape(tensor)[0] // workers
        return tensor[worker * local:(worker + 1) * local]

    start = tf.data.Dataset.from_generator(lambda: iter([first_step()]), output_signature=tf.TensorSpec([], tf.int64))
    batches = start.flat_map(lambda skip: dataset.skip(skip).take(stop - skip))
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
    return batches.map(lambda *batch: tf.nest.map_structure(rows, batch)).with_options(options)


def train(side: Any, strategy: Any, args: argparse.Namespace, pair: Pair, params: dict[str, Any], record: role_program.RoleRecord,
          begun: dict[str, int]) -> bool:
    """`fit` up to ``--steps`` with the hook twins, `BackupAndRestore` and `StopAtStep`, their actions recorded in
    `record`: whether it resumed from a backup."""
    major, backup_dir = keras_major(), args.model_dir / BACKUP_DIRNAME
    interrupted = backup_exists(backup_dir, major)
    twins = RecordedCallbacks(args.model_dir, args.save_checkpoints_steps, args.log_step_count_steps)
    epochs, steps_per_epoch = fit_layout(args.steps, args.save_checkpoints_steps, major)
    dataset = strategy.distribute_datasets_from_function(
        lambda context: worker_dataset(pair, params, lambda: begun["step"], args.steps,
                                       context.input_pipeline_id, context.num_input_pipelines))
    side.model.fit(dataset, epochs=epochs, steps_per_epoch=steps_per_epoch, verbose=0,
                   callbacks=[backup_callback(backup_dir, args.save_checkpoints_steps, major), *twins.callbacks(),
                              StopAtStep(last_step=args.steps),
                              trace_callback(record, begun)])
    record.actions += twins.actions()
    return interrupted


def evaluate_outside_strategy(pair: Pair, params: dict[str, Any], weights: list[Any]) -> dict[str, float] | None:
    """The eval metrics of `weights` (the trained model's `get_weights`), in a model built outside the strategy
    (None without eval input)."""
    if not pair.has_eval:
        return None
    local = built_side(pair, params)
    local.model.set_weights(weights)
    return local.evaluate()


def run(args: argparse.Namespace, environ: dict[str, str]) -> int:
    task_type, index, cluster = role_from_tf_config(environ)
    workers = len(cluster["worker"])
    role_program.require_run(args, "a worker")
    began = time.monotonic()
    run_spec = PairRun.read(args.run)
    run_spec.local_batch(workers)
    strategy = role_program.start_server(cluster, task_type, index, tf.distribute.MultiWorkerMirroredStrategy)
    pair, params = run_spec.load(), run_spec.params("modern")
    side = build_side(pair, params, strategy, args.initial_weights)
    record, begun = role_program.RoleRecord(ProgressFile(args.progress)), dict[str, int]()
    trained_from = time.monotonic()
    interrupted = train(side, strategy, args, pair, params, record, begun)
    seconds = time.monotonic() - trained_from
    final = int(side.model.optimizer.iterations.numpy())
    is_chief = strategy.extended.should_checkpoint
    # every worker reads the weights: a sync-on-read one (batch-norm statistics) is all-reduced as it is read
    weights = side.model.get_weights()
    metrics = evaluate_outside_strategy(pair, params, weights) if is_chief else None
    role = Role("chief" if is_chief else "worker", f"{task_type}:{index}", pair=pair.origin,
                engine="MultiWorkerMirroredStrategy", pid=os.getpid(), workers=workers,
                start_step=begun.get("step", final), final_step=final,
                restored_by="BackupAndRestore" if interrupted else None,
                loss_kind="mean loss of the global batch (all-reduced)", seconds=seconds,
                startup_seconds=trained_from - began)
    write_side_trace(args.trace, record.trace("modern", role, {"tensorflow": tf.__version__, "keras": keras.__version__},
                                              metrics))
    return 0


PROGRAM = role_program.RoleProgram("modern.distributed.pair", __doc__.splitlines()[0], configure, run)
main = PROGRAM.main


if __name__ == "__main__":
    raise SystemExit(main())
