"""One task of a TF1 Estimator cluster training the user's pair: ``python -m legacy.distributed.estimator --run RUN.json ...``.

How TF1 users deployed `tf.estimator.train_and_evaluate`: every machine runs
the same program with its own ``TF_CONFIG``, and `RunConfig` reads the role
from it — ``chief`` (trains, saves checkpoints and summaries), ``worker``
(trains), ``ps`` (holds the variables; serves until killed) and
``evaluator`` (outside the training cluster: evaluates the chief's newest
checkpoint every ``--eval-throttle-secs`` and writes ``<model-dir>/eval/``
events, until it has evaluated the checkpoint of the last step). The
Estimator is the pair's `model_fn` with its `train_input_fn` and
`eval_input_fn`, read from the `PairRun` (``--run``) as
`legacy.distributed.pair` reads it.

Synchronous: while the model_fn runs in TRAIN mode its TF1 optimizer is
wrapped in `SyncReplicasOptimizer` (`legacy.distributed.pair.synchronised_optimizers`,
its hook added to the spec's training hooks): asynchronous ps training gives a
non-deterministic update order and checkpoints at racing global steps, so
neither losses nor the evaluator's per-checkpoint metrics could be compared
with the `MultiWorkerMirroredStrategy` twin beyond an accuracy band. As in
`legacy.distributed.pair`, its step barrier hook makes every update average
exactly one gradient per worker, and worker i (chief 0, worker k = k+1)
trains at global step s on its slice of global batch s of `train_input_fn`.

Three TF1 waits are shortened, not changed in kind: the 5 s per worker
index that `train_and_evaluate` sleeps before a worker starts
(`RunConfig(experimental_max_worker_delay_secs=0)`); the 30 s a non-chief
`SessionManager` sleeps when the chief has not yet initialised the
variables (`wait_for_chief_hook` polls instead); and the 120 s the chief's
`MonitoredTrainingSession` waits at the end for the `SyncReplicasOptimizer`
queue runner, which blocks for gradients that never come (the Estimator
does not pass `stop_grace_period_secs`; `short_stop_grace_period` sets 5 s).

Outputs: ``--trace`` (JSON: per-step losses, which hook acted at which global
step, on the chief the metrics of `eval_input_fn` on the last checkpoint, on
the evaluator the metrics of every checkpoint it evaluated); ``--progress``
(JSON lines, one per step or evaluation, surviving a kill);
``--initial-weights-out`` (chief: the step-0 variables the modern side copies).

Exit codes (`migrate.core.role_program`): 0 done, 1 the cluster failed around this task
(no checkpoint reaching the evaluator within ``--eval-timeout``, the chief not
initialising the variables), 2 bad input (``TF_CONFIG`` missing a role, flags, the pair).
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.training import training

from legacy.distributed import pair as between_graph
from migrate.core import role_program
from migrate.core.progress_file import ProgressFile
from migrate.core.side_trace import Action, Role, SideTrace, write_side_trace
from migrate.core.tf_config import TfConfigError, read_tf_config, require_roles, require_task_in_cluster
from migrate.parity.distributed.pair_run import PairRun
from migrate.parity.pair import Pair
from migrate.parity.sides.legacy_side import call_model_fn
from migrate.parity.sides.seeding import seed_everything

TRAINING_ROLES = ("chief", "ps")
"""What the training cluster must have; ``worker`` tasks are optional, ``evaluator`` is outside the cluster."""
TASK_TYPES = ("chief", "worker", "ps", "evaluator")
STEP_RATE_TAG = "global_step/sec"
EVAL_SUMMARY_TAG = "loss"
"""The metric every evaluation writes (the Estimator's ``loss``): one event with it per evaluation."""


def role_from_tf_config(environ: dict[str, str]) -> tuple[str, int, dict[str, list[str]]]:
    """(task type, index, training cluster) from ``TF_CONFIG``; a `TfConfigError` names what is missing."""
    cluster, task_type, index = read_tf_config(environ)
    require_roles(cluster, TRAINING_ROLES, "train_and_evaluate with a parameter server needs one chief and at least one ps.")
    if len(cluster["chief"]) != 1:
        raise TfConfigError(f"TF_CONFIG's cluster has {len(cluster['chief'])} chiefs; it must have exactly one.")
    if task_type not in TASK_TYPES:
        raise TfConfigError(f"TF_CONFIG's task type {task_type!r} is not one of {list(TASK_TYPES)}.")
    if task_type == "evaluator" and index != 0:
        raise TfConfigError(f"TF_CONFIG's task evaluator:{index}: there is one evaluator, evaluator:0.")
    if task_type != "evaluator":
        require_task_in_cluster(cluster, task_type, index, TASK_TYPES)
    return task_type, index, {role: cluster[role] for role in ("chief", "worker", "ps") if cluster.get(role)}


def configure(parser: argparse.ArgumentParser) -> None:
    role_program.add_role_flags(parser)
    parser.add_argument("--eval-throttle-secs", type=int, default=1, help="evaluator: EvalSpec throttle_secs")
    parser.add_argument("--eval-timeout", type=float, default=120.0,
                        help="evaluator: seconds to wait for the chief's first checkpoint before giving up")
    parser.add_argument("--initial-weights-out", type=Path, help="chief: write the step-0 variables here (.npz)")


def wait_for_checkpoint(model_dir: Path, timeout: float, who: str) -> str:
    """The first checkpoint of `model_dir`, polled every 0.2 s; `RoleFailed` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while (latest := tf.train.latest_checkpoint(str(model_dir))) is None:
        if time.monotonic() > deadline:
            raise role_program.RoleFailed(
                f"no checkpoint arrived in {model_dir} within {timeout:g} s; {who} evaluates the checkpoints the "
                "chief writes there. Is the chief running, with the same model dir?"
            )
        time.sleep(0.2)
    return latest


def metrics_exporter(record: between_graph.WorkerRecord) -> Any:
    """Evaluator: keeps each evaluation's scalar metrics and records it as an ``Evaluation`` action at its checkpoint's
    step (`train_and_evaluate` calls exporters after every evaluation)."""
    class MetricsExporter(tf.estimator.Exporter):
        @property
        def name(self) -> str:
            return "metrics"

        def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
            step = int(eval_result["global_step"])
            metrics = {key: float(value) for key, value in eval_result.items() if key != "global_step" and np.ndim(value) == 0}
            record.evaluated(step, metrics, os.path.basename(checkpoint_path))

    return MetricsExporter()


def short_stop_grace_period(seconds: float = 5.0) -> None:
    """Make the Estimator's `MonitoredTrainingSession` wait `seconds`, not 120 s, for its threads at the end.

    After the last step the chief's SyncReplicas queue runner blocks in
    `take_grad` until the session closes; the Estimator has no knob for the
    grace period, so this process wraps the class it calls (TF1 users' sync
    jobs idled those two minutes at every end).
    """
    original = training.MonitoredTrainingSession
    if not isinstance(original, functools.partial):
        training.MonitoredTrainingSession = functools.partial(original, stop_grace_period_secs=seconds)


def _logging_recorder(record: between_graph.WorkerRecord) -> logging.Handler:
    """Records the Estimator's own LoggingTensorHook ("loss = …, step = …") at this worker's step count."""

    class Recorder(logging.Handler):
        def emit(self, log: logging.LogRecord) -> None:
            message = log.getMessage()
            if message.startswith("loss = ") and "step = " in message:
                record.act("LoggingTensorHook", record.step)

    return Recorder()


def cluster_model_fn(pair: Pair, workers: int, found: between_graph.Replicated, built: list[Any]) -> Callable[..., Any]:
    """The pair's model_fn for the Estimator: in TRAIN mode its optimizer wrapped in `SyncReplicasOptimizer`, whose
    hook joins the spec's training hooks, and its loss kept in `built` for the step barrier."""
    def model_fn(features: Any, labels: Any, mode: str, params: dict[str, Any], config: Any) -> Any:
        seed_everything(int(params.get("seed", 0)))
        training = mode == tf.estimator.ModeKeys.TRAIN
        with between_graph.synchronised_optimizers(workers, found) if training else contextlib.nullcontext():
            spec = call_model_fn(pair, features, labels, mode, params, config)
        if not training:
            return spec
        between_graph.check_training_spec(pair, spec, found, synchronous=True)
        built.append(spec.loss)
        sync_hooks = [sync.make_session_run_hook(config.is_chief, num_tokens=0) for sync in found.optimizers]
        return spec._replace(training_hooks=[*(spec.training_hooks or ()), *sync_hooks])

    return model_fn


def train_spec(args: argparse.Namespace, pair: Pair, params: dict[str, Any], task_type: str, worker: int | None,
               workers: int, config: Any, barrier: Any, listeners: list[Any]) -> Any:
    """The TrainSpec: this trainer's slice of every global batch in order, the step barrier."""
    def input_fn() -> Any:
        return between_graph.train_batches(pair, params).map(lambda features, labels: between_graph.worker_slice((features, labels), worker or 0, workers))

    hooks = [] if worker is None else [barrier]  # the evaluator trains nothing
    if task_type == "worker":
        hooks.insert(0, between_graph.wait_for_chief_hook(config.master, config.session_config))
    return tf.estimator.TrainSpec(input_fn, max_steps=args.steps, hooks=hooks, saving_listeners=listeners)


def _summary_actions(args: argparse.Namespace, task_type: str) -> list[Action]:
    """The summaries the chief (SummarySaverHook, StepCounterHook) or the evaluator (eval/) wrote, as actions."""
    if task_type == "chief":
        tags = role_program.summary_events(args.model_dir)
        return ([Action("SummarySaverHook", step) for step, names in tags if STEP_RATE_TAG not in names]
                + [Action("StepCounterHook", step) for step, names in tags if STEP_RATE_TAG in names])
    if task_type == "evaluator":
        return [Action("EvalSummary", step) for step, names in role_program.summary_events(args.model_dir / "eval")
                if EVAL_SUMMARY_TAG in names]
    return []


def run_config(args: argparse.Namespace, seed: int) -> Any:
    return tf.estimator.RunConfig(
        model_dir=str(args.model_dir), tf_random_seed=seed, save_checkpoints_steps=args.save_checkpoints_steps,
        save_summary_steps=args.log_step_count_steps, log_step_count_steps=args.log_step_count_steps,
        keep_checkpoint_max=None, experimental_max_worker_delay_secs=0,
    )


def serve_variables(args: argparse.Namespace) -> None:
    """The ps: `train_and_evaluate` starts its server and joins it (until the launcher stops this process)."""
    def never_called(features: Any, labels: Any, mode: str) -> Any:
        raise AssertionError("a ps builds no model")

    estimator = tf.estimator.Estimator(never_called, config=run_config(args, 0))
    tf.estimator.train_and_evaluate(estimator, tf.estimator.TrainSpec(lambda: None), tf.estimator.EvalSpec(lambda: None))


def run_task(args: argparse.Namespace, run: PairRun, task_type: str, index: int,
             cluster: dict[str, list[str]]) -> SideTrace:
    """Build the Estimator and the specs, and run this task's part of `train_and_evaluate` (chief, worker, evaluator)."""
    workers = len(cluster["chief"]) + len(cluster.get("worker", []))
    worker = {"chief": 0, "worker": index + 1}.get(task_type)
    pair, params = run.load(evaluates=task_type == "evaluator"), run.params("legacy")
    config = run_config(args, int(params.get("seed", 0)))
    found, built = between_graph.Replicated([], []), list[Any]()
    estimator = tf.estimator.Estimator(cluster_model_fn(pair, workers, found, built), config=config, params=params)
    record = between_graph.WorkerRecord(ProgressFile(args.progress))
    barrier = between_graph.step_barrier_hook(worker or 0, workers, record, lambda: built[-1])
    listeners = [between_graph.checkpoint_listener(args.initial_weights_out, record, found)] if task_type == "chief" else []
    train = train_spec(args, pair, params, task_type, worker, workers, config, barrier, listeners)
    # the pair's eval input on the evaluator (nothing elsewhere), every evaluation's metrics recorded
    evaluate = tf.estimator.EvalSpec(lambda: pair.call("eval_input_fn", params) if task_type == "evaluator" else None,
                                     steps=None, name=None, exporters=[metrics_exporter(record)],
                                     start_delay_secs=0, throttle_secs=args.eval_throttle_secs)
    if task_type == "evaluator":
        wait_for_checkpoint(args.model_dir, args.eval_timeout, "the evaluator")
    short_stop_grace_period()
    recorder = _logging_recorder(record)
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)  # LoggingTensorHook logs at INFO, as TF1 showed
    logging.getLogger("tensorflow").addHandler(recorder)
    began = time.monotonic()
    tf.estimator.train_and_evaluate(estimator, train, evaluate)
    ended = time.monotonic()
    logging.getLogger("tensorflow").removeHandler(recorder)
    ready = record.session_ready or began  # trainers: from the session's creation; the evaluator: all of it
    record.actions.extend(_summary_actions(args, task_type))
    final = max((e.step for e in record.evaluations), default=0) if task_type == "evaluator" else record.step
    role = Role("worker" if task_type == "worker" else task_type, f"{task_type}:{index}", pair=pair.origin,
                engine="Estimator train_and_evaluate + SyncReplicasOptimizer", pid=os.getpid(), workers=workers,
                start_step=record.start, final_step=final, seconds=ended - ready, startup_seconds=ready - began,
                loss_kind="this worker's loss on its slice of the global batch")
    os.environ.pop("TF_CONFIG", None)  # the chief's own evaluation below is a local Estimator, not a cluster task
    metrics = between_graph.evaluate_last_checkpoint(pair, params, args.model_dir) if task_type == "chief" else None
    return record.trace("legacy", role, {"tensorflow": tf.__version__}, metrics)


def run(args: argparse.Namespace, environ: dict[str, str]) -> int:
    task_type, index, cluster = role_from_tf_config(environ)
    if task_type == "ps":
        print(f"ps {index} serving at {cluster['ps'][index]}", file=sys.stderr, flush=True)
        serve_variables(args)
        return 0
    role_program.require_run(args, f"a {task_type}")
    write_side_trace(args.trace, run_task(args, PairRun.read(args.run), task_type, index, cluster))
    return 0


PROGRAM = role_program.RoleProgram("legacy.distributed.estimator", __doc__.splitlines()[0], configure, run)
main = PROGRAM.main


if __name__ == "__main__":
    raise SystemExit(main())
