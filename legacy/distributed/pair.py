"""One TF1 cluster process training the user's pair: ``python -m legacy.distributed.pair --run RUN.json ...``.

The pair's `model_fn` under TF1 between-graph replication: every process
starts a `tf.distribute.Server` for its task of ``TF_CONFIG`` (1 ps + N
workers, worker 0 the chief); ``ps`` serves the variables until it is
killed (TF1 parameter servers never exit by themselves; the launcher stops
them); a worker builds the graph with
`replica_device_setter` (variables on the ps) by calling the pair's
`model_fn` in TRAIN mode on its slice of each global batch of
`train_input_fn` and trains in a `MonitoredTrainingSession` up to global
step ``--steps`` — the chief restoring the newest checkpoint of
``--model-dir`` (a restarted cluster resumes there, the input skipped to the
global batch of that step) and alone running the checkpoint, summary and
step-counter hooks (the ones `MonitoredTrainingSession` would add on the
chief), `LoggingTensorHook` running on every worker as the Estimator's did;
the spec's ``training_hooks`` run on every worker, its
``training_chief_hooks`` on the chief, as the Estimator runs them.

Synchronous (``--replication sync``, the default): every `tf.compat.v1.train.Optimizer`
the model_fn applies gradients with is wrapped, while the model_fn is
called, in `SyncReplicasOptimizer` (``replicas_to_aggregate`` = N). One
addition to the TF1 recipe: `SyncReplicasOptimizer` applies the first N
gradients it receives, not one per worker, and hands out N tokens per
update that any worker may take — a fast worker can contribute two
gradients to one update, and when a worker dies the others carry on with
its share. So that every update averages exactly one gradient per worker
(what `MultiWorkerMirroredStrategy`'s all-reduce does, and what makes the
losses comparable), each worker records its last finished step in a ps
variable and waits, before its next step, until every worker has finished
the previous one. Worker i of N trains at global step s on rows ``[i*B/N, (i+1)*B/N)``
of global batch s (B: ``params["batch_size"]``). A model_fn that already
builds its own `SyncReplicasOptimizer` keeps it (its hook comes in the
spec's hooks).

Asynchronous (``--replication async``): the model_fn's own update, applied
by each worker as soon as it has its gradients; each worker draws its own
shuffled batches of B/N examples and records its loss at the global step
after its update. No worker waits for another: a killed non-chief worker
leaves the chief training alone, and a restarted one rejoins the running
cluster. Which update reads which weights is up to the scheduler, so
losses are only comparable statistically.

Writes ``--trace`` (the worker's own losses on its slice, the hooks' actions,
on the chief the metrics of `eval_input_fn` on the last checkpoint),
``--progress`` (JSON lines per step, surviving a kill) and on a fresh start
``--initial-weights-out`` (chief: the step-0 trainable variables and state,
`migrate.parity.distributed.pair_run`). Exit codes (`migrate.core.role_program`): 0 done, 1 the chief
did not initialise the variables in time, 2 bad input (``TF_CONFIG``, a port already taken, the pair).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import tensorflow as tf

from migrate.core import role_program
from migrate.core.progress_file import ProgressFile
from migrate.core.side_trace import Role, SideTrace, write_side_trace
from migrate.core.tf_config import task_of
from migrate.parity.distributed.pair_run import INITIAL_STATE_KEY, INITIAL_TRAINABLE_KEY, PairRun
from migrate.parity.pair import Pair, PairError
from migrate.parity.sides import legacy_side
from migrate.parity.sides.seeding import seed_everything

ROLES = ("ps", "worker")
REPLICATIONS = ("sync", "async")


def role_from_tf_config(environ: dict[str, str]) -> tuple[str, int, dict[str, list[str]]]:
    """(task type, index, cluster) from ``TF_CONFIG``; a `TfConfigError` names what is missing."""
    return task_of(environ, ROLES, "between-graph training needs at least one ps and one worker.")


def configure(parser: argparse.ArgumentParser) -> None:
    role_program.add_role_flags(parser)
    parser.add_argument("--replication", choices=REPLICATIONS, default="sync",
                        help="sync: SyncReplicasOptimizer around the model_fn's optimizer; async: plain updates")
    parser.add_argument("--initial-weights-out", type=Path, help="chief: write the step-0 variables here (.npz)")


def wait_for_chief_hook(master: str, config: Any, timeout: float = 120.0) -> Any:
    """Non-chief: a hook polling, before its session is made, until the chief has initialised the variables (a
    non-chief `SessionManager` would sleep 30 s between checks); `RoleFailed` after `timeout` seconds."""
    class WaitForChiefHook(tf.compat.v1.train.SessionRunHook):
        def begin(self) -> None:
            uninitialized = tf.compat.v1.report_uninitialized_variables(tf.compat.v1.global_variables())
            deadline = time.monotonic() + timeout
            with tf.compat.v1.Session(master, config=config) as session:
                while len(session.run(uninitialized)):
                    if time.monotonic() > deadline:
                        raise role_program.RoleFailed(f"the chief did not initialise the variables within {timeout:.0f} s.")
                    time.sleep(0.2)

    return WaitForChiefHook()


@dataclass
class WorkerRecord(role_program.RoleRecord):
    """What a worker records while it trains (`RoleRecord`), and its global step as the hooks see it."""

    step: int = 0
    start: int = 0
    """The global step the session started at (a restarted cluster: its checkpoint's)."""
    session_ready: float | None = None
    """When the session was ready to train (`time.monotonic`)."""

    def finished(self, value: float) -> None:
        """This worker's loss of the step it just finished (`step`), with its process id."""
        self.loss(self.step, value, pid=os.getpid())


def step_barrier_hook(index: int, workers: int, record: WorkerRecord, loss: Callable[[], Any],
                      device: Any = None) -> Any:
    """A hook making worker `index` wait, before its step k+1, until every worker finished step k; it keeps each
    step's loss (`loss()`, the loss tensor once the graph is built) in `record`.

    `SyncReplicasOptimizer` alone applies the first N gradients it receives,
    which may be two of one fast worker; `MultiWorkerMirroredStrategy`'s
    all-reduce takes exactly one per worker. The finished steps live in a ps
    variable (a global variable, created on `device`: the chief initialises
    it), which each worker marks after its step.
    """
    class StepBarrierHook(tf.compat.v1.train.SessionRunHook):
        def begin(self) -> None:
            with tf.compat.v1.device(device) if device is not None else contextlib.nullcontext():
                finished = tf.compat.v1.get_variable(
                    "worker_finished_steps", [workers], tf.int64, tf.compat.v1.zeros_initializer(), trainable=False)
            self._finished_step = tf.compat.v1.placeholder(tf.int64, [], name="finished_step")
            self._mark = tf.compat.v1.scatter_update(finished, [index], tf.reshape(self._finished_step, [1]))
            self._slowest = tf.reduce_min(finished)
            self._global_step, self._loss = tf.compat.v1.train.get_global_step(), loss()

        def after_create_session(self, session, coord) -> None:
            record.step = record.start = int(session.run(self._global_step))
            record.session_ready = time.monotonic()
            session.run(self._mark, {self._finished_step: record.step})

        def before_run(self, run_context):
            while run_context.session.run(self._slowest) < record.step:
                time.sleep(0.005)
            record.step += 1  # the step this run trains: what every hook's after_run records at, whatever its order
            return tf.compat.v1.train.SessionRunArgs(self._loss)

        def after_run(self, run_context, run_values) -> None:
            run_context.session.run(self._mark, {self._finished_step: record.step})
            record.finished(run_values.results)

    return StepBarrierHook()


def run_op(session: Any, op: Any, feed: dict[Any, Any] | None = None) -> Any:
    """Run `op` outside the hooks (`run_step_fn`): bookkeeping that is no training step."""
    return session.run_step_fn(lambda step_context: step_context.session.run(op, feed))


class Replicated(NamedTuple):
    """What wrapping the model_fn's optimizers found: the `SyncReplicasOptimizer`s made, the model's variables."""

    optimizers: list[Any]
    model_variables: list[Any]
    """Every global variable that existed when the first gradients were applied: the model's, before any slot."""


@contextlib.contextmanager
def synchronised_optimizers(workers: int, found: Replicated) -> Iterator[None]:
    """While the model_fn runs, `Optimizer.apply_gradients` goes through a `SyncReplicasOptimizer` around it."""
    base = tf.compat.v1.train.Optimizer
    original = base.apply_gradients
    inside = [False]

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        if not found.model_variables:
            found.model_variables.extend(tf.compat.v1.global_variables())
        if inside[0]:  # SyncReplicasOptimizer applying the averaged gradients with the optimizer it wraps
            return original(self, grads_and_vars, global_step, name)
        sync = tf.compat.v1.train.SyncReplicasOptimizer(self, replicas_to_aggregate=workers,
                                                        total_num_replicas=workers)
        found.optimizers.append(sync)
        inside[0] = True
        try:
            step = global_step if global_step is not None else tf.compat.v1.train.get_global_step()
            # Outside the caller's control dependencies (the usual `with control_dependencies(UPDATE_OPS)`):
            # SyncReplicasOptimizer builds its readiness check here too, which would otherwise pull a batch
            # and run the batch-norm updates each time its hook asks. The update still waits for them, below.
            with tf.control_dependencies(None):
                update = sync.apply_gradients(grads_and_vars, step, name)
        finally:
            inside[0] = False
        return tf.group(update)

    base.apply_gradients = apply_gradients
    try:
        yield
    finally:
        base.apply_gradients = original


def worker_slice(batch: Any, worker: int, workers: int) -> Any:
    """Worker `worker`'s rows of a global batch (every tensor of a nested structure, along its first axis)."""
    def rows(tensor):
        local = tf.shape(tensor)[0] // workers
        return tensor[worker * local:(worker + 1) * local]

    return tf.nest.map_structure(rows, batch)


def check_training_spec(pair: Pair, spec: Any, found: Replicated, synchronous: bool) -> None:
    """The TRAIN-mode spec can train between graphs: a loss and a train_op, synchronously through one TF1 optimizer
    (wrapped while the model_fn ran) or the model_fn's own `SyncReplicasOptimizer`; a `PairError` says why not."""
    if spec.train_op is None or spec.loss is None:
        raise PairError(f"{pair.origin}: model_fn in TRAIN mode returned no train_op or no loss.")
    own_sync = any(op.type in ("AccumulatorTakeGradient", "SparseAccumulatorTakeGradient")
                   for op in tf.compat.v1.get_default_graph().get_operations())
    if synchronous and not found.optimizers and not own_sync:
        raise PairError(f"{pair.origin}: model_fn's train_op applies no gradients through a "
                        "tf.compat.v1.train.Optimizer (a Keras optimizer, or assign ops?), so there is nothing "
                        "to wrap in SyncReplicasOptimizer: synchronous between-graph training needs a TF1 "
                        "optimizer's apply_gradients or minimize.")
    if len(found.optimizers) > 1:
        raise PairError(f"{pair.origin}: model_fn applies gradients with {len(found.optimizers)} optimizers; "
                        "synchronous between-graph training wraps one (SyncReplicasOptimizer needs the global "
                        "step for each): train with one optimizer, or use the single-process comparison.")


class PairGraph(NamedTuple):
    """A worker's graph around the pair's model_fn: what the loop, the hooks and the initial-weights writer run."""

    global_step: Any
    spec: Any
    """The model_fn's TRAIN-mode `EstimatorSpec`: its loss, train_op and hooks."""
    found: Replicated
    """What wrapping the model_fn's optimizers found: the `SyncReplicasOptimizer` whose hook the worker runs (none
    when asynchronous, or when the model_fn brings its own) and the model's variables (the step-0 weights)."""
    skip: Any
    iterator_init: Any
    step_after_update: Any
    """The global step after this worker's update (async: the update's own step, or a later one)."""
    chief_ready: Any
    set_chief_ready: Any
    ps_device: Any
    """The `replica_device_setter` that puts the graph's variables on the ps."""


def train_batches(pair: Pair, params: dict[str, Any]) -> Any:
    """The global batches of the pair's `train_input_fn`; a `PairError` unless they are a `tf.data.Dataset`."""
    dataset = pair.call("train_input_fn", params)
    if not isinstance(dataset, tf.data.Dataset):
        raise PairError(f"{pair.origin}: train_input_fn(params) returned {type(dataset).__name__}; a distributed run "
                        "needs a tf.data.Dataset of (features, labels) global batches (it skips to a restart's step).")
    return dataset


def pair_input(pair: Pair, params: dict[str, Any], index: int, workers: int,
               synchronous: bool) -> tuple[Any, Any, Any, Any]:
    """(features, labels, start placeholder, iterator initializer) of this worker, from the step the session starts at.

    Synchronous: its slice of each global batch, from the global batch of
    that step. Asynchronous: its own batches of B/N examples, shuffled with a
    seed of the pair's seed, the worker and that step (so a restarted worker
    draws new ones).
    """
    dataset = train_batches(pair, params)
    start = tf.compat.v1.placeholder(tf.int64, [], name="pair_start_step")
    if synchronous:
        iterator = tf.compat.v1.data.make_initializable_iterator(dataset.skip(start))
        features, labels = worker_slice(iterator.get_next(), index, workers)
        return features, labels, start, iterator.initializer
    local = int(params["batch_size"]) // workers
    seed = (int(params.get("seed", 0)) * 1000 + index) * 1_000_003 + start
    own = dataset.unbatch().shuffle(8 * local * workers, seed=seed).batch(local, drop_remainder=True).repeat()
    iterator = tf.compat.v1.data.make_initializable_iterator(own)
    features, labels = iterator.get_next()
    return features, labels, start, iterator.initializer


def build_pair_graph(pair: Pair, params: dict[str, Any], args: argparse.Namespace, index: int,
                     cluster: dict[str, list[str]]) -> PairGraph:
    """Worker `index`'s graph, in the default graph: the model_fn's, its variables on the ps."""
    workers = len(cluster["worker"])
    seed_everything(int(params.get("seed", 0)))
    setter = tf.compat.v1.train.replica_device_setter(worker_device=f"/job:worker/task:{index}", cluster=cluster)
    found = Replicated([], [])
    with tf.compat.v1.device(setter):
        global_step = tf.compat.v1.train.get_or_create_global_step()
        with tf.compat.v1.device(f"/job:worker/task:{index}"):
            synchronous = args.replication == "sync"
            features, labels, skip, iterator_init = pair_input(pair, params, index, workers, synchronous)
        with synchronised_optimizers(workers, found) if synchronous else contextlib.nullcontext():
            spec = legacy_side.call_model_fn(pair, features, labels, tf.estimator.ModeKeys.TRAIN, params)
        check_training_spec(pair, spec, found, synchronous)
        tf.compat.v1.summary.scalar("loss", spec.loss)  # what the Estimator adds for its SummarySaverHook
        chief_ready = tf.compat.v1.get_variable(
            "chief_ready", [], tf.bool, tf.compat.v1.zeros_initializer(), trainable=False)
    with tf.control_dependencies([spec.train_op]):
        step_after_update = tf.identity(global_step.read_value())  # this update's step, or a later one
    return PairGraph(global_step, spec, found, skip, iterator_init, step_after_update, chief_ready,
                     chief_ready.assign(True), setter)


def worker_hooks(args: argparse.Namespace, graph: PairGraph, index: int, workers: int, scaffold: Any,
                 record: WorkerRecord) -> tuple[list[Any], list[Any]]:
    """(every worker's hooks, the chief's hooks): TF1's, each subclassed to record when it acts in `record`, and
    the step barrier first (synchronous), so the others see the step it counts; the model_fn's spec's own last."""
    class Summaries(tf.compat.v1.train.SummarySaverHook):
        def after_run(self, run_context, run_values):
            if self._request_summary:
                record.act("SummarySaverHook", record.step)
            super().after_run(run_context, run_values)

    class StepCounter(tf.compat.v1.train.StepCounterHook):
        def _log_and_record(self, elapsed_steps, elapsed_time, global_step):
            record.act("StepCounterHook", record.step)
            super()._log_and_record(elapsed_steps, elapsed_time, global_step)

    class Logging(tf.compat.v1.train.LoggingTensorHook):
        def _log_tensors(self, tensor_values):
            record.act("LoggingTensorHook", record.step)
            super()._log_tensors(tensor_values)

    model_dir, every = str(args.model_dir), args.log_step_count_steps
    chief_hooks = [
        tf.compat.v1.train.CheckpointSaverHook(model_dir, save_steps=args.save_checkpoints_steps, scaffold=scaffold,
                                               listeners=[checkpoint_listener(args.initial_weights_out, record, graph.found)]),
        Summaries(save_steps=every, output_dir=model_dir, scaffold=scaffold),
        StepCounter(every_n_steps=every, output_dir=model_dir),
        *(graph.spec.training_chief_hooks or ()),
    ]
    synchronous = args.replication == "sync"
    barrier = [step_barrier_hook(index, workers, record, lambda: graph.spec.loss, graph.ps_device)] if synchronous else []
    # none when asynchronous, or when the model_fn brings its own SyncReplicasOptimizer (its hook in the spec's)
    sync_hooks = [sync.make_session_run_hook(index == 0, num_tokens=0) for sync in graph.found.optimizers]
    hooks = barrier + sync_hooks + [
        Logging({"step": graph.global_step, "loss": graph.spec.loss}, every_n_iter=every),
        tf.compat.v1.train.StopAtStepHook(last_step=args.steps),
        *(graph.spec.training_hooks or ()),
    ]
    return hooks, chief_hooks


def model_variables(found: Replicated) -> tuple[dict[str, Any], dict[str, Any]]:
    """(trainable variables, state) of the model_fn's graph by name: the state is every other floating variable
    that existed when the first gradients were applied (batch-norm moving statistics; no slot, no global step)."""
    trainable = {v.op.name: v for v in tf.compat.v1.trainable_variables()}
    global_step = tf.compat.v1.train.get_global_step()
    state = {v.op.name: v for v in found.model_variables if v.op.name not in trainable and v is not global_step
             and v.dtype.base_dtype.is_floating}
    return trainable, state


def checkpoint_listener(initial_weights_out: Path | None, record: WorkerRecord, found: Replicated) -> Any:
    """The chief's saving listener: records each save and, at the step-0 save of a fresh start, writes the
    trainable variables and state to `initial_weights_out` (.npz, renamed into place: the modern side, which
    starts from them, starts once it exists)."""
    class Saved(tf.compat.v1.train.CheckpointSaverListener):
        def after_save(self, session, global_step_value):
            record.act("CheckpointSaverHook", global_step_value)
            if global_step_value == 0 and initial_weights_out is not None:
                trainable, state = model_variables(found)
                partial = initial_weights_out.with_name(initial_weights_out.name + ".partial.npz")
                np.savez(partial, **{INITIAL_TRAINABLE_KEY: np.array(list(trainable), dtype=str),
                                     INITIAL_STATE_KEY: np.array(list(state), dtype=str)},
                         **session.run({**trainable, **state}))
                os.replace(partial, initial_weights_out)

    return Saved()


def train_pair_asynchronously(session, graph: PairGraph, record: WorkerRecord) -> None:
    """Train on this worker's own batches until `StopAtStepHook` stops it, waiting for nobody but the chief's
    first read of the weights (the other side copies the step-0 values the chief reads)."""
    while not run_op(session, graph.chief_ready):
        time.sleep(0.05)
    while not session.should_stop():
        record.step += 1  # what the hooks see during the run; the real step comes back with it
        step, value = session.run([graph.step_after_update, graph.spec.loss])
        record.step = int(step)
        record.finished(value)


def train_pair_worker(pair: Pair, params: dict[str, Any], args: argparse.Namespace, index: int,
                      cluster: dict[str, list[str]], server, record: WorkerRecord) -> tuple[int, float, float]:
    """Build the graph and train in a `MonitoredTrainingSession`: (start step, startup and training seconds)."""
    is_chief = index == 0
    config = tf.compat.v1.ConfigProto(device_filters=["/job:ps", f"/job:worker/task:{index}"])
    with tf.Graph().as_default():
        graph = build_pair_graph(pair, params, args, index, cluster)
        # built when the session is made, after the hooks' `begin`: the step barrier's variable is saved too
        saver = tf.compat.v1.train.Saver(max_to_keep=None, save_relative_paths=True, defer_build=True)
        scaffold = tf.compat.v1.train.Scaffold(saver=saver)
        hooks, chief_hooks = worker_hooks(args, graph, index, len(cluster["worker"]), scaffold, record)
        waits = [] if is_chief else [wait_for_chief_hook(server.target, config)]
        began = time.monotonic()
        with tf.compat.v1.train.MonitoredTrainingSession(
            master=server.target, is_chief=is_chief, checkpoint_dir=str(args.model_dir), scaffold=scaffold,
            hooks=[*waits, *hooks], chief_only_hooks=chief_hooks if is_chief else None, config=config,
            save_checkpoint_steps=None, save_checkpoint_secs=None, save_summaries_steps=None, save_summaries_secs=None,
            log_step_count_steps=None, stop_grace_period_secs=5,
        ) as session:
            start = record.step = int(run_op(session, graph.global_step))
            run_op(session, graph.iterator_init, {graph.skip: start})
            if is_chief:  # the step-0 weights are written (`checkpoint_listener`): the others may train
                run_op(session, graph.set_chief_ready)
            trained_from = time.monotonic()
            if args.replication == "async":
                train_pair_asynchronously(session, graph, record)
            else:
                while not session.should_stop():  # each step behind the step barrier, which records its loss
                    session.run(graph.spec.train_op)
        seconds = time.monotonic() - trained_from
    return start, trained_from - began, seconds


def evaluate_last_checkpoint(pair: Pair, params: dict[str, Any], model_dir: Path) -> dict[str, float] | None:
    """The metrics of `eval_input_fn` on the newest checkpoint, from a local Estimator (None without eval input).

    It evaluates in a directory of its own pointing at the checkpoint, so the
    cluster's model dir gets no ``eval/`` events, (``TF_CONFIG`` is out of the
    environment since `run`: the Estimator would take this process for a cluster task).
    """
    if not pair.has_eval:
        return None
    checkpoint = tf.train.latest_checkpoint(str(model_dir))
    with tempfile.TemporaryDirectory(prefix="evaluate-", dir=model_dir.parent) as directory:
        tf.compat.v1.train.update_checkpoint_state(directory, os.path.abspath(checkpoint))
        return legacy_side.evaluate(pair, params, int(params.get("seed", 0)), Path(directory))


def run_pair_worker(args: argparse.Namespace, index: int, cluster: dict[str, list[str]], server) -> SideTrace:
    """Train worker `index` on the pair and return its trace (on the chief with the eval metrics)."""
    run = PairRun.read(args.run)
    run.local_batch(len(cluster["worker"]))
    pair, params = run.load(), run.params("legacy")
    record = WorkerRecord(ProgressFile(args.progress))
    start, startup, seconds = train_pair_worker(pair, params, args, index, cluster, server, record)
    synchronous = args.replication == "sync"
    role = Role("chief" if index == 0 else "worker", f"worker:{index}", pair=pair.origin,
                engine="SyncReplicasOptimizer" if synchronous else "asynchronous updates",
                replication=args.replication, pid=os.getpid(), workers=len(cluster["worker"]), start_step=start,
                final_step=record.step, seconds=seconds, startup_seconds=startup,
                loss_kind="this worker's loss on its slice of the global batch" if synchronous else
                          "this worker's loss on its own batch, keyed by the global step after its update")
    metrics = evaluate_last_checkpoint(pair, params, args.model_dir) if index == 0 else None
    return record.trace("legacy", role, {"tensorflow": tf.__version__}, metrics)


def run(args: argparse.Namespace, environ: dict[str, str]) -> int:
    task_type, index, cluster = role_from_tf_config(environ)
    os.environ.pop("TF_CONFIG", None)  # the cluster is passed on explicitly; a canned model_fn's RunConfig must not read it
    if task_type == "ps":
        return role_program.serve(cluster, task_type, index)
    role_program.require_run(args, "a worker")
    server = role_program.start_server(cluster, task_type, index)
    write_side_trace(args.trace, run_pair_worker(args, index, cluster, server))
    return 0


PROGRAM = role_program.RoleProgram("legacy.distributed.pair", __doc__.splitlines()[0], configure, run)
main = PROGRAM.main


if __name__ == "__main__":
    raise SystemExit(main())
