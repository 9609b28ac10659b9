"""One `ParameterServerStrategy` process training the user's pair: ``python -m modern.distributed.pair_ps --run RUN.json ...``.

The asynchronous twin of ``legacy.distributed.pair --replication async``.
The role comes from ``TF_CONFIG`` (a ``chief``, the coordinator, one or more
``ps`` and ``worker`` tasks): ``ps`` and ``worker`` start a
`tf.distribute.Server` and serve until stopped — variables live on the ps,
the workers run whatever the coordinator schedules (like TF1 parameter
servers, they never exit by themselves; the launcher stops them); the
``chief`` (the coordinator) builds the pair's Keras model
with `build_model` under the strategy (variables on the ps), gives it the
legacy chief's step-0 values (mapped as the single-process engine maps
them) or continues from the newest checkpoint of ``--model-dir``, and
trains with `modern.distributed.ps.loop` — each scheduled step one update
of one worker's batch of B/N examples, its loss the model's own
`compute_loss` — running the callbacks of `modern/callbacks/` on the
coordinator only: one set of checkpoints and event files, as TF1's
chief-only hooks wrote. Each worker's dataset is the pair's `train_dataset`
(its first ``--steps`` global batches, saved by the coordinator for the
workers to read) rebatched to B/N examples and shuffled on the worker.

Writes ``--progress`` per scheduled step (with the pid of the worker that
ran it, on Linux) and ``--trace`` at the end, with the metrics of
`eval_dataset` on the trained weights (a model built outside the strategy).
Exit codes (`migrate.core.role_program`): 0 done, 2 bad input (``TF_CONFIG``, flags, the pair, a port taken).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import keras
import tensorflow as tf

from migrate.core import role_program
from migrate.core.progress_file import ProgressFile
from migrate.core.side_trace import Role, SideTrace, write_side_trace
from migrate.core.tf_config import task_of
from migrate.parity.distributed.pair_run import PairRun
from migrate.parity.pair import Pair
from migrate.parity.sides.modern_side import ModernSide
from modern.callbacks.checkpoint_saver import make_checkpoint
from modern.distributed.pair import configure, evaluate_outside_strategy, give_initial_weights, loss_reader
from modern.distributed.ps.loop import gradient_step, train, window_for, worker_pid
from modern.distributed.recorded_callbacks import RecordedCallbacks

ROLES = ("chief", "ps", "worker")
SERVER_ROLES = ("ps", "worker")


def role_from_tf_config(environ: dict[str, str]) -> tuple[str, int, dict[str, list[str]]]:
    """(task type, index, cluster) from ``TF_CONFIG``; the cluster needs a chief (the coordinator), ps and workers."""
    return task_of(environ, ROLES, "ParameterServerStrategy needs a chief (the coordinator), at least one ps and one worker.")


def worker_dataset_fn(pair: Pair, params: dict[str, Any], batches: int, local_batch: int,
                      directory: Path) -> Callable[[], Any]:
    """One worker's infinite dataset: the first `batches` global batches of the pair's `train_dataset`, shuffled on
    the worker, in batches of `local_batch`.

    The coordinator saves those batches once (`tf.data.Dataset.save` into
    `directory`) and each worker loads them: a dataset that runs Python
    (`from_generator`, `tf.numpy_function`, as the MNIST pair's does) runs
    only in the process that made it, never on a remote worker. On several
    machines, put `directory` on shared storage. `build_on_ps` checked already that `train_dataset` gives a
    `tf.data.Dataset` (`ModernSide.first_batch`).
    """
    dataset = pair.call("train_dataset", params)
    dataset.take(batches).save(str(directory))
    spec = dataset.element_spec

    def dataset_fn() -> Any:
        saved = tf.data.Dataset.load(str(directory), element_spec=spec)
        return saved.unbatch().shuffle(8 * local_batch).batch(local_batch, drop_remainder=True).repeat()

    return dataset_fn


def has_own_train_step(model: Any) -> bool:
    return type(model).train_step is not keras.Model.train_step


def model_step(model: Any) -> Callable[[Any, Any], Any]:
    """One update of the pair's model on a batch and its loss, as `loop` runs it on a worker.

    A model whose class defines its own `train_step` trains with it, as `fit`
    would (its ``step_loss`` log, else the `compute_loss` value it computed,
    is the loss: the rule of the single-process engine); any other model takes
    the gradient of its own `compute_loss` (with its regularisation losses).
    """
    if not has_own_train_step(model):
        return gradient_step(model, lambda labels, outputs: model.compute_loss(y=labels, y_pred=outputs))
    read_loss = loss_reader(model)
    return lambda features, labels: read_loss(model.train_step((features, labels)))[0]


def build_on_ps(pair: Pair, params: dict[str, Any], strategy: Any, args: argparse.Namespace) -> tuple[Any, int]:
    """The pair's model under `strategy`, its loss built on a first batch; restored or given the initial values."""
    with strategy.scope():
        side = ModernSide(pair, params, int(params.get("seed", 0)))
        features, labels = tf.nest.map_structure(tf.convert_to_tensor, side.first_batch())
        side.ensure_built(features)
        if not has_own_train_step(side.model):  # its compiled loss: build the loss container
            side.model.compute_loss(y=labels, y_pred=side.model(features, training=False))
    latest = tf.train.latest_checkpoint(str(args.model_dir))
    if latest is not None:
        make_checkpoint(side.model).restore(latest).expect_partial()
    elif args.initial_weights is not None:
        give_initial_weights(side, pair, args.initial_weights)
    return side, int(side.model.optimizer.iterations.numpy())


def coordinate(args: argparse.Namespace, cluster: dict[str, list[str]]) -> SideTrace:
    """The coordinator: build, copy or restore, train with the callbacks, evaluate; the trace."""
    run_spec = PairRun.read(args.run)
    workers = len(cluster["worker"])
    local_batch = run_spec.local_batch(workers)
    pair, params = run_spec.load(), run_spec.params("modern")
    began = time.monotonic()
    strategy = tf.distribute.experimental.ParameterServerStrategy(
        tf.distribute.cluster_resolver.TFConfigClusterResolver())
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
    side, start = build_on_ps(pair, params, strategy, args)
    record = role_program.RoleRecord(ProgressFile(args.progress))
    twins = RecordedCallbacks(args.model_dir, args.save_checkpoints_steps, args.log_step_count_steps)
    dataset_fn = worker_dataset_fn(pair, params, args.steps, local_batch, args.model_dir.parent / "ps-data")
    trained_from = time.monotonic()
    final = train(coordinator, side.model, dataset_fn,
                  model_step(side.model), twins.callbacks(), args.steps,
                  window_for(args.save_checkpoints_steps, args.log_step_count_steps),
                  lambda step, loss, pid: record.loss(step, loss, pid=pid),
                  identify=worker_pid if sys.platform.startswith("linux") else None)
    seconds = time.monotonic() - trained_from
    metrics = evaluate_outside_strategy(pair, params, side.model.get_weights())
    role = Role("chief", "chief:0", pair=pair.origin, engine="ParameterServerStrategy + ClusterCoordinator loop",
                replication="async", pid=os.getpid(), workers=workers, start_step=start, final_step=final,
                scheduled_steps=len(record.losses), extra_updates=final - start - len(record.losses),
                loss_kind="the loss of the i-th scheduled batch (whichever worker ran it, on the weights it read)",
                seconds=seconds, startup_seconds=trained_from - began)
    record.actions += twins.actions()
    return record.trace("modern", role, {"tensorflow": tf.__version__, "keras": keras.__version__}, metrics)


def run(args: argparse.Namespace, environ: dict[str, str]) -> int:
    task_type, index, cluster = role_from_tf_config(environ)
    if task_type in SERVER_ROLES:
        return role_program.serve(cluster, task_type, index)
    role_program.require_run(args, "the coordinator (chief)")
    write_side_trace(args.trace, coordinate(args, cluster))
    return 0


PROGRAM = role_program.RoleProgram("modern.distributed.pair_ps", __doc__.splitlines()[0], configure, run)


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("GRPC_FAIL_FAST", "use_caller")  # a dead worker fails its closures fast: they are retried
    return PROGRAM.main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
