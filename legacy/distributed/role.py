"""One TF1 cluster process: ``python -m legacy.distributed --model-dir D --data F.npz ...`` with ``TF_CONFIG`` set.

The role comes from ``TF_CONFIG`` (``{"cluster": {"ps": [...], "worker": [...]},
"task": {"type": "worker", "index": i}}``); worker 0 is the chief.

* ``ps``: starts its server and serves the variables until it is killed
  (TF1 parameter servers never exit by themselves; the launcher stops them).
* ``worker``: builds the graph with `replica_device_setter` (variables on
  the ps) and trains in a `MonitoredTrainingSession(master=server.target,
  is_chief=...)` up to global step ``--steps``. The chief restores the
  newest checkpoint of ``--model-dir`` (so a restarted cluster resumes
  there) and alone runs the checkpoint, summary and step-counter hooks.

``--replication`` chooses how the workers' gradients meet (`REPLICATIONS`):

* ``sync`` (default): the optimizer is wrapped in `SyncReplicasOptimizer`
  (the gradients of all workers are averaged and applied once per global
  step). At global step s (0-based batch index) worker i of n feeds examples
  ``[s*B + i*B/n, s*B + (i+1)*B/n)`` (modulo the training set), as
  `modern.distributed` does.
* ``async``: no `SyncReplicasOptimizer` — each worker applies its own
  gradients to the ps variables as soon as it has them, and every update
  increments the global step (the TF1 default for between-graph training).
  Each worker draws its own random batches of B/n examples (seeded by
  ``--seed``, the worker index and the step it starts from), so n workers
  together process B examples per n updates, like the synchronous run. No
  worker waits for another: a killed non-chief worker leaves the chief
  training alone, and a restarted one rejoins the running cluster (it waits
  for nothing but the ps). Which update reads which weights is up to the
  scheduler, so losses are only comparable statistically.

One addition to the TF1 recipe (sync only): `SyncReplicasOptimizer` applies the first N
gradients it receives for a step, not one per worker, and hands out N tokens
per update that any worker may take — a fast worker can contribute two
gradients to one update, and when a worker dies the others carry on with its
share. So that every update averages exactly one gradient per worker (what
`MultiWorkerMirroredStrategy`'s all-reduce does, and what makes the losses
comparable), each worker records its last finished step in a ps variable and
waits, before its next step, until every worker has finished the previous one.

Each worker writes ``--trace`` (JSON): its own per-step loss on its half of
the global batch, which hook acted at which global step, timings, and on the
chief the test-set loss and accuracy; ``--progress`` gets a JSON line
``{"step", "loss"}`` after every step (it survives a killed process), and
``--initial-weights-out`` (chief, fresh start) the step-0 model
variables for the modern side to copy.

Exit codes (`migrate.core.role_program`): 0 done, 1 the chief did not initialise the
variables in time, 2 bad input (``TF_CONFIG``, a port already taken, data).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from migrate.core.mnist_model import LOSS_OP_NAME
from migrate.core.progress_file import ProgressFile
from migrate.core.role_program import RoleError, RoleFailed, RoleProgram, run_role_program, write_trace
from migrate.core.tf_config import TfConfigError, read_tf_config, require_roles, require_task_in_cluster

ROLES = ("ps", "worker")
REPLICATIONS = ("sync", "async")


def role_from_tf_config(environ: dict[str, str]) -> tuple[str, int, dict[str, list[str]]]:
    """(task type, index, cluster) from ``TF_CONFIG``, with a clear error for what is missing."""
    try:
        cluster, task_type, index = read_tf_config(environ)
        require_roles(cluster, ROLES, "between-graph training needs at least one ps and one worker.")
        require_task_in_cluster(cluster, task_type, index, ROLES)
    except TfConfigError as error:
        raise RoleError(str(error)) from error
    return task_type, index, cluster


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model-dir", required=True, type=Path, help="the chief's checkpoints and summaries")
    parser.add_argument("--data", type=Path, help=".npz with x_train, y_train, x_test, y_test (workers)")
    parser.add_argument("--steps", type=int, default=100, help="global step to train to")
    parser.add_argument("--global-batch-size", type=int, default=128)
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--optimizer", choices=("sgd", "adam"), default="sgd")
    parser.add_argument("--dropout-rate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--replication", choices=REPLICATIONS, default="sync",
                        help="sync: SyncReplicasOptimizer; async: every worker applies its own gradients")
    parser.add_argument("--save-checkpoints-steps", type=int, default=10)
    parser.add_argument("--log-step-count-steps", type=int, default=10)
    parser.add_argument("--initial-weights-out", type=Path, help="chief: write the step-0 model variables here (.npz)")
    parser.add_argument("--trace", type=Path)
    parser.add_argument("--progress", type=Path)


def batch_indices(step: int, global_batch: int, worker: int, workers: int, size: int) -> np.ndarray:
    """Worker `worker`'s examples of global batch `step` (0-based): its 1/workers slice, wrapping around the data."""
    local = global_batch // workers
    return (step * global_batch + worker * local + np.arange(local, dtype=np.int64)) % size


def random_batch_indices(rng: np.random.Generator, global_batch: int, workers: int, size: int) -> np.ndarray:
    """Asynchronous training: one worker's next batch, B/n examples drawn without replacement."""
    return rng.choice(size, global_batch // workers, replace=False)


def start_server(cluster: dict[str, list[str]], task_type: str, index: int):
    import tensorflow as tf

    try:
        return tf.distribute.Server(tf.train.ClusterSpec(cluster), job_name=task_type, task_index=index, start=True)
    except (tf.errors.OpError, ValueError) as error:
        message = getattr(error, "message", str(error))
        raise RoleError(
            f"could not start the server of {task_type} {index} at {cluster[task_type][index]} ({message.strip()}); "
            "is the port already taken?"
        ) from error


def _wait_for_chief(target: str, config, uninitialized, timeout: float = 120.0) -> None:
    """Poll until the chief has initialised the variables (SessionManager would sleep 30 s between checks)."""
    import tensorflow as tf

    deadline = time.monotonic() + timeout
    with tf.compat.v1.Session(target, config=config) as session:
        while len(session.run(uninitialized)):
            if time.monotonic() > deadline:
                raise RoleFailed(f"the chief did not initialise the variables within {timeout:.0f} s.")
            time.sleep(0.2)


def evaluate_checkpoint(model_dir: Path, params: dict, x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Test loss and accuracy of the newest checkpoint, in a fresh local graph (no cluster needed)."""
    import tensorflow as tf

    from legacy.model import VARIABLE_SHAPES, logits_fn

    with tf.Graph().as_default():
        images = tf.compat.v1.placeholder(tf.uint8, [None, 28, 28])
        logits = logits_fn(images, training=False, params=params)
        variables = {v.op.name: v for v in tf.compat.v1.global_variables() if v.op.name in VARIABLE_SHAPES}
        saver = tf.compat.v1.train.Saver(variables)
        with tf.compat.v1.Session() as session:
            saver.restore(session, tf.train.latest_checkpoint(str(model_dir)))
            values = np.concatenate([session.run(logits, {images: x[i:i + 500]}) for i in range(0, len(x), 500)])
    labels = y.astype(np.int64)
    shifted = values - values.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return {
        "accuracy": float((values.argmax(axis=1) == labels).mean()),
        "loss": float(-log_probs[np.arange(len(labels)), labels].mean()),
    }


def run_worker(args: argparse.Namespace, index: int, cluster: dict[str, list[str]], server) -> dict[str, Any]:
    import tensorflow as tf

    from legacy.model import VARIABLE_SHAPES, logits_fn, make_optimizer, merged_params

    workers = len(cluster["worker"])
    is_chief = index == 0
    synchronous = args.replication == "sync"
    params = {**merged_params({"learning_rate": args.learning_rate, "optimizer": args.optimizer,
                               "dropout_rate": args.dropout_rate}), "seed": args.seed}
    data = dict(np.load(args.data))
    x_train, y_train = data["x_train"], data["y_train"]
    actions: list[dict] = []
    losses: dict[int, float] = {}
    state = {"step": 0}

    def act(hook: str, step: int) -> None:
        actions.append({"hook": hook, "step": int(step)})

    class Saved(tf.compat.v1.train.CheckpointSaverListener):
        def after_save(self, session, global_step_value):
            act("CheckpointSaverHook", global_step_value)

    class Summaries(tf.compat.v1.train.SummarySaverHook):
        def after_run(self, run_context, run_values):
            if self._request_summary:
                act("SummarySaverHook", state["step"])
            super().after_run(run_context, run_values)

    class StepCounter(tf.compat.v1.train.StepCounterHook):
        def _log_and_record(self, elapsed_steps, elapsed_time, global_step):
            act("StepCounterHook", state["step"])
            super()._log_and_record(elapsed_steps, elapsed_time, global_step)

    class Logging(tf.compat.v1.train.LoggingTensorHook):
        def _log_tensors(self, tensor_values):
            act("LoggingTensorHook", state["step"])
            super()._log_tensors(tensor_values)

    device_filters = ["/job:ps", f"/job:worker/task:{index}"]
    config = tf.compat.v1.ConfigProto(device_filters=device_filters)
    with tf.Graph().as_default():
        tf.compat.v1.set_random_seed(args.seed)
        setter = tf.compat.v1.train.replica_device_setter(worker_device=f"/job:worker/task:{index}", cluster=cluster)
        with tf.compat.v1.device(setter):
            global_step = tf.compat.v1.train.get_or_create_global_step()
            images = tf.compat.v1.placeholder(tf.uint8, [None, 28, 28], name="images")
            labels = tf.compat.v1.placeholder(tf.int64, [None], name="labels")
            logits = logits_fn(images, training=True, params=params)
            loss = tf.identity(
                tf.compat.v1.losses.sparse_softmax_cross_entropy(labels=tf.cast(labels, tf.int32), logits=logits),
                name=LOSS_OP_NAME,
            )
            tf.compat.v1.summary.scalar("loss", loss)
            optimizer = make_optimizer(params)
            if synchronous:
                optimizer = tf.compat.v1.train.SyncReplicasOptimizer(
                    optimizer, replicas_to_aggregate=workers, total_num_replicas=workers)
            train_op = optimizer.minimize(loss, global_step=global_step)
            finished = tf.compat.v1.get_variable(
                "worker_finished_steps", [workers], tf.int64, tf.compat.v1.zeros_initializer(), trainable=False)
            chief_ready = tf.compat.v1.get_variable(
                "chief_ready", [], tf.bool, tf.compat.v1.zeros_initializer(), trainable=False)
        set_chief_ready = chief_ready.assign(True)
        finished_step = tf.compat.v1.placeholder(tf.int64, [], name="finished_step")
        mark_finished = tf.compat.v1.scatter_update(finished, [index], tf.reshape(finished_step, [1]))
        slowest = tf.reduce_min(finished)
        with tf.control_dependencies([train_op]):
            step_after_update = tf.identity(global_step.read_value())  # this update's step, or a later one
        model_variables = {v.op.name: v for v in tf.compat.v1.global_variables() if v.op.name in VARIABLE_SHAPES}
        uninitialized = None if is_chief else tf.compat.v1.report_uninitialized_variables(tf.compat.v1.global_variables())
        scaffold = tf.compat.v1.train.Scaffold(saver=tf.compat.v1.train.Saver(max_to_keep=None, save_relative_paths=True))
        chief_hooks = [
            tf.compat.v1.train.CheckpointSaverHook(str(args.model_dir), save_steps=args.save_checkpoints_steps, scaffold=scaffold,
                                                   listeners=[Saved()]),
            Summaries(save_steps=args.log_step_count_steps, output_dir=str(args.model_dir), scaffold=scaffold),
            StepCounter(every_n_steps=args.log_step_count_steps, output_dir=str(args.model_dir)),
        ]
        hooks = ([optimizer.make_session_run_hook(is_chief, num_tokens=0)] if synchronous else []) + [
            Logging({"step": global_step, "loss": loss}, every_n_iter=args.log_step_count_steps),
            tf.compat.v1.train.StopAtStepHook(last_step=args.steps),
        ]
        if not is_chief:
            _wait_for_chief(server.target, config, uninitialized)
        began = time.monotonic()
        with tf.compat.v1.train.MonitoredTrainingSession(
            master=server.target, is_chief=is_chief, checkpoint_dir=str(args.model_dir), scaffold=scaffold,
            hooks=hooks, chief_only_hooks=chief_hooks if is_chief else None, config=config,
            save_checkpoint_steps=None, save_checkpoint_secs=None, save_summaries_steps=None,
            save_summaries_secs=None, log_step_count_steps=None, stop_grace_period_secs=5,
        ) as session:
            start = int(session.run_step_fn(lambda step_context: step_context.session.run(global_step)))
            if is_chief and start == 0 and args.initial_weights_out is not None:
                values = session.run_step_fn(lambda step_context: step_context.session.run(model_variables))
                partial = args.initial_weights_out.with_name(args.initial_weights_out.name + ".partial.npz")
                np.savez(partial, **values)
                os.replace(partial, args.initial_weights_out)  # the modern side starts once this file exists
            state["step"] = start
            if is_chief:
                session.run_step_fn(lambda step_context: step_context.session.run(set_chief_ready))

            def mark(step: int) -> None:
                session.run_step_fn(lambda step_context: step_context.session.run(mark_finished, {finished_step: step}))

            def wait_for_every_worker(step: int) -> None:
                while session.run_step_fn(lambda step_context: step_context.session.run(slowest)) < step:
                    time.sleep(0.005)

            def record(value: float) -> None:
                losses[state["step"]] = float(value)
                progress.write({"step": state["step"], "loss": float(value), "time": time.time(), "pid": os.getpid()})

            def train_synchronously() -> None:
                mark(start)
                while start < args.steps and not session.should_stop():
                    wait_for_every_worker(state["step"])
                    indices = batch_indices(state["step"], args.global_batch_size, index, workers, len(x_train))
                    state["step"] += 1
                    _, value = session.run([train_op, loss], {images: x_train[indices], labels: y_train[indices]})
                    mark(state["step"])
                    record(value)

            def train_asynchronously() -> None:
                # Nobody trains before the chief has read the step-0 weights (the other side copies them).
                while not session.run_step_fn(lambda step_context: step_context.session.run(chief_ready)):
                    time.sleep(0.05)
                rng = np.random.default_rng([args.seed, index, start])
                while not session.should_stop():
                    indices = random_batch_indices(rng, args.global_batch_size, workers, len(x_train))
                    state["step"] += 1  # what the hooks see during the run; the real step comes back with it
                    step, value = session.run([step_after_update, loss], {images: x_train[indices], labels: y_train[indices]})
                    state["step"] = int(step)
                    record(value)

            progress = ProgressFile(args.progress)
            trained_from = time.monotonic()
            {"sync": train_synchronously, "async": train_asynchronously}[args.replication]()
        seconds = time.monotonic() - trained_from
    trace: dict[str, Any] = {
        "side": "legacy", "engine": "SyncReplicasOptimizer" if synchronous else "asynchronous updates",
        "replication": args.replication, "role": "chief" if is_chief else "worker",
        "task": f"worker:{index}", "pid": os.getpid(), "workers": workers,
        "start_step": start, "final_step": state["step"],
        "losses": {str(k): v for k, v in sorted(losses.items())},
        "loss_kind": "this worker's loss on its slice of the global batch" if synchronous else
                     "this worker's loss on its own batch, keyed by the global step after its update",
        "actions": sorted(actions, key=lambda a: (a["step"], a["hook"])),
        "seconds": seconds, "startup_seconds": trained_from - began,
        "versions": {"tensorflow": tf.__version__},
    }
    if is_chief:
        trace["metrics"] = {**evaluate_checkpoint(args.model_dir, params, data["x_test"], data["y_test"]),
                            "global_step": state["step"]}
    return trace


def run(args: argparse.Namespace, environ: dict[str, str]) -> int:
    task_type, index, cluster = role_from_tf_config(environ)
    if task_type == "worker":
        if args.data is None or args.trace is None:
            raise RoleError("a worker needs --data and --trace.")
        if args.global_batch_size % len(cluster["worker"]):
            raise RoleError(
                f"--global-batch-size {args.global_batch_size} does not split evenly over {len(cluster['worker'])} workers."
            )
        if not args.data.is_file():
            raise RoleError(f"--data {args.data} does not exist.")
    server = start_server(cluster, task_type, index)
    if task_type == "ps":
        print(f"ps {index} serving at {cluster['ps'][index]}", file=sys.stderr, flush=True)
        server.join()
        return 0
    write_trace(args.trace, run_worker(args, index, cluster, server))
    return 0


PROGRAM = RoleProgram("legacy.distributed", __doc__.splitlines()[0], configure, run)


def main(argv: Sequence[str] | None = None) -> int:
    return run_role_program(PROGRAM, argv)
