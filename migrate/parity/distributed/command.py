"""The `--workers` part of `migrate parity`: flags, checks, the run and its outputs."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from migrate.core.cli import CommandFailed, UsageError

SINGLE_PROCESS_FLAGS = {
    "side": "both", "against": None, "record": None, "mode": "exact", "modern_override": [], "pair": "mnist", "param": [],
}
"""Flags of the single-process comparison (and their defaults) that `--workers` does not take: the
distributed sides are the MNIST conv net's (`legacy.distributed`, `modern.distributed`)."""
DEFAULT_GLOBAL_BATCH = 128


def configure(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "distributed (--workers N): the TF1 ps/worker cluster vs its tf.distribute twin, as local processes")
    group.add_argument("--workers", type=int, help="train both sides on N local worker processes (SGD)")
    group.add_argument("--replication", choices=("sync", "async"),
                       help="sync (default): SyncReplicasOptimizer vs MultiWorkerMirroredStrategy, losses compared step "
                            "by step; async: asynchronous ps training vs ParameterServerStrategy with a coordinator, "
                            "compared statistically (test accuracy)")
    group.add_argument("--evaluator", action="store_true",
                       help="the Estimator deployment instead: train_and_evaluate with TF_CONFIG roles chief, worker, ps "
                            "and evaluator vs MultiWorkerMirroredStrategy workers and a sidecar evaluator (synchronous); "
                            "the evaluators' per-checkpoint metrics are compared too")
    group.add_argument("--kill", metavar="worker:I@STEP",
                       help="SIGKILL worker I at global step STEP on each side; sync: the cluster restarts from its "
                            "checkpoint; async: the worker alone is restarted while the others train on")
    group.add_argument("--save-checkpoints-steps", type=int, help="checkpoint every N steps (default: steps / 4)")
    group.add_argument("--train-examples", type=int, help="use the first N training images (default: all)")
    group.add_argument("--test-examples", type=int, help="evaluate on the first N test images (default: all)")
    group.add_argument("--modern-python", help="interpreter for the modern side (e.g. a TF 2.21 venv's python)")
    group.add_argument("--timeout", type=float, default=600.0, help="seconds each cluster run may take")


def config_from_args(args: argparse.Namespace):
    from migrate.parity.distributed.cluster import Fault
    from migrate.parity.distributed.run import DistributedConfig, DistributedConfigError

    clashing = [f"--{name.replace('_', '-')}" for name, default in SINGLE_PROCESS_FLAGS.items()
                if getattr(args, name, default) != default]
    if args.optimizer not in (None, "sgd"):
        clashing.append("--optimizer adam")
    if clashing:
        raise UsageError(f"{', '.join(clashing)} cannot be combined with --workers: the distributed comparison runs "
                         "both clusters itself, with SGD.")
    if args.modern_python and not os.access(args.modern_python, os.X_OK):
        raise UsageError(f"--modern-python {args.modern_python} is not an executable interpreter.")
    steps = args.steps if args.steps is not None else 200
    try:
        kill = Fault.parse(args.kill) if args.kill else None
        config = DistributedConfig(
            workers=args.workers, steps=steps, global_batch_size=args.batch_size if args.batch_size is not None else DEFAULT_GLOBAL_BATCH,
            learning_rate=args.learning_rate if args.learning_rate is not None else 0.05, seed=args.seed,
            save_steps=args.save_checkpoints_steps or max(1, steps // 4), log_steps=max(1, steps // 4),
            train_examples=args.train_examples, test_examples=args.test_examples, kill=kill, timeout=args.timeout,
            pythons={"modern": args.modern_python} if args.modern_python else {},
            replication=args.replication or "sync", evaluator=args.evaluator,
        )
        config.check()
    except (ValueError, DistributedConfigError) as error:
        raise UsageError(str(error)) from error
    return config


def run(args: argparse.Namespace) -> int:
    from migrate.core.mnist import MnistDataError, load_mnist
    from migrate.parity.distributed.cluster import ClusterError
    from migrate.parity.distributed.report import terminal_summary, write_outputs
    from migrate.parity.distributed.run import run_distributed

    config = config_from_args(args)
    try:
        data = load_mnist(args.data_dir)
    except MnistDataError as error:
        raise UsageError(str(error)) from error
    out = Path(args.out)
    try:
        result = run_distributed(config, data, out / "distributed-run",
                                 progress=lambda message: print(message, file=sys.stderr, flush=True))
    except ClusterError as error:  # a role process failed: the run found a problem, not a usage error
        raise CommandFailed(str(error)) from error
    print(terminal_summary(result))
    written = write_outputs(result, out)
    print("\nwritten: " + ", ".join(str(path) for path in written) + f"; checkpoints and logs in {out / 'distributed-run'}")
    return 0 if result["ok"] else 1
