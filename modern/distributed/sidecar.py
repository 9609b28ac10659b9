"""The evaluator task in TF2: ``python -m modern.distributed.sidecar --model-dir D --run RUN.json --steps N ...``.

The twin of the ``evaluator`` of TF1's `tf.estimator.train_and_evaluate`
(`legacy/distributed/estimator.py`): a process outside the training cluster
(``TF_CONFIG`` task type ``evaluator``) that watches the chief's checkpoint
directory, evaluates each new checkpoint on the pair's `eval_dataset` (the
model built by its `build_model`, as `modern.distributed.pair` builds it,
from the `PairRun` of ``--run``) and writes the metrics as summaries to ``<model-dir>/eval/`` at the checkpoint's global
step, the way the Estimator's evaluator writes its ``eval/`` events; it stops
after evaluating the checkpoint of the last training step.

Keras 2.15 ships this loop as `tf.keras.utils.SidecarEvaluator`; Keras 3 has
no sidecar evaluator, so this module is the loop itself, small enough to
copy, and the same on both. Like the Estimator's evaluator (and
`SidecarEvaluator`), it evaluates the newest checkpoint when it looks
(`tf.train.checkpoints_iterator`): checkpoints written faster than one
evaluation takes are skipped, on both sides.

Differences from the Estimator's evaluator: the model is restored from the
object-based checkpoint of `modern.callbacks.checkpoint_saver`
(``model`` and ``optimizer``) instead of rebuilt from a `model_fn`; the loss is
Keras' mean over examples (TF1's ``loss`` metric is the mean of the batch
means: the same when every eval batch is full, which the trace's role
records as `eval_batches_full`); and it gives up with a clear
message when no new checkpoint arrives within ``--eval-timeout`` seconds
(the Estimator's evaluator waits forever).

Outputs: ``--trace`` (JSON: the metrics of every checkpoint evaluated and the
evaluation/summary actions per global step), ``--progress`` (JSON lines, one
per evaluation). Exit codes (`migrate.core.role_program`): 0 done, 1 no new
checkpoint in time (the cluster failed around it), 2 bad input.
"""
from __future__ import annotations

import argparse
import os
import time
from typing import Any

import keras
import numpy as np
import tensorflow as tf

from migrate.core import role_program
from migrate.core.progress_file import ProgressFile
from migrate.core.side_trace import Action, Role, SideTrace, write_side_trace
from migrate.core.tf_config import read_tf_config
from migrate.parity.distributed.pair_run import PairRun
from modern.callbacks.checkpoint_saver import make_checkpoint
from modern.distributed.pair import built_side

EVAL_SUBDIR = "eval"


def check_tf_config(environ: dict[str, str]) -> None:
    """This process must be the evaluator of a cluster that has workers (whose chief writes the checkpoints)."""
    cluster, task_type, index = read_tf_config(environ)
    if not cluster.get("worker") and not cluster.get("chief"):
        raise role_program.RoleError(f"TF_CONFIG's cluster {sorted(cluster)} has no 'worker' or 'chief' role: nobody "
                                     "writes the checkpoints this evaluator would evaluate.")
    if (task_type, index) != ("evaluator", 0):
        raise role_program.RoleError(f"TF_CONFIG's task is {task_type}:{index}; the sidecar evaluator runs as evaluator:0.")


def configure(parser: argparse.ArgumentParser) -> None:
    role_program.add_role_flags(parser, trains=False)
    parser.add_argument("--eval-timeout", type=float, default=120.0,
                        help="seconds to wait for a new checkpoint before giving up")
    parser.add_argument("--poll-secs", type=float, default=1.0, help="seconds between looks at the directory")


def evaluation_model(run: PairRun) -> tuple[Any, Any, bool]:
    """(the pair's model with its optimizer built, its eval dataset, whether every eval batch is full)."""
    pair, params = run.load(evaluates=True), run.params("modern")
    dataset = pair.call("eval_dataset", params)
    sizes = {int(tf.shape(tf.nest.flatten(batch)[0])[0]) for batch in dataset}
    return built_side(pair, params).model, dataset, len(sizes) == 1


def evaluate_checkpoints(args: argparse.Namespace) -> SideTrace:
    """The sidecar loop: restore each new checkpoint, evaluate, write its summaries; until the last step."""
    started = time.monotonic()
    model, dataset, full_batches = evaluation_model(PairRun.read(args.run))
    checkpoint = make_checkpoint(model)
    writer = tf.summary.create_file_writer(str(args.model_dir / EVAL_SUBDIR))
    record = role_program.RoleRecord(ProgressFile(args.progress))

    began = time.monotonic()
    for path in tf.train.checkpoints_iterator(str(args.model_dir), min_interval_secs=args.poll_secs,
                                              timeout=args.eval_timeout):
        checkpoint.restore(path).expect_partial()
        step = int(model.optimizer.iterations.numpy())
        results = model.evaluate(dataset, verbose=0, return_dict=True)
        metrics = {name: float(value) for name, value in results.items() if np.ndim(value) == 0}
        with writer.as_default(step=step):
            for name, value in metrics.items():
                tf.summary.scalar(name, value)
        writer.flush()
        record.evaluated(step, metrics, os.path.basename(path))  # at the checkpoint's step
        if step >= args.steps:
            break
    else:
        last = f"the last one evaluated was at step {record.evaluations[-1].step}" if record.evaluations else "none arrived"
        raise role_program.RoleFailed(
            f"no new checkpoint arrived in {args.model_dir} within {args.eval_timeout:g} s ({last}; training "
            f"ends at step {args.steps}); the evaluator evaluates what the chief writes there. Is the chief running?"
        )
    writer.close()
    record.actions += [Action("EvalSummary", step) for step, tags in role_program.summary_events(args.model_dir / EVAL_SUBDIR)
                       if "loss" in tags]
    role = Role("evaluator", "evaluator:0", engine="sidecar evaluator (checkpoints_iterator + Keras evaluate)",
                pid=os.getpid(), final_step=record.evaluations[-1].step, seconds=time.monotonic() - began,
                startup_seconds=began - started, eval_batches_full=full_batches)
    return record.trace("modern", role, {"tensorflow": tf.__version__, "keras": keras.__version__})


def run(args: argparse.Namespace, environ: dict[str, str]) -> int:
    check_tf_config(environ)
    role_program.require_run(args, "the evaluator")
    write_side_trace(args.trace, evaluate_checkpoints(args))
    return 0


PROGRAM = role_program.RoleProgram("modern.distributed.sidecar", __doc__.splitlines()[0], configure, run)
main = PROGRAM.main


if __name__ == "__main__":
    raise SystemExit(main())
