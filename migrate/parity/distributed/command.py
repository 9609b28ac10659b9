"""The `--workers` part of `migrate parity`: flags, checks and the run (reported as a single-process run is)."""
from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from migrate.core.cli import CommandFailed, UsageError

if TYPE_CHECKING:
    from migrate.parity.distributed.config import DistributedConfig
    from migrate.parity.distributed.pair_run import PairRun
    from migrate.parity.result import ParityResult

NOT_DISTRIBUTED: dict[str, str] = {
    "side": "a distributed run trains both clusters in one go; to run the modern side on another TensorFlow, give "
            "--modern-python",
    "record": "traces are recorded by single-process runs (the cluster's are in --out/distributed-run)",
    "against": "a distributed run trains its own legacy cluster; to run the modern side on another TensorFlow, give "
               "--modern-python",
    "mode": "the synchronous clusters are compared step by step; --replication async gives the statistical verdict",
    "show_mapping": "the mapping is the single-process one: run --show-mapping without --workers",
    "accuracy_bar": "the distributed verdict has its own tolerances (docs/guide, distributed section)",
    "max_accuracy_gap": "the distributed verdict has its own tolerances (docs/guide, distributed section)",
    "loss_tolerance": "the distributed verdict has its own tolerances (docs/guide, distributed section)",
    "forward_tolerance": "the distributed run compares training, not the forward pass",
    "no_serving": "a distributed run exports no SavedModels",
    "serving_tolerance": "a distributed run exports no SavedModels",
}
"""Flags of `migrate parity` (by their argparse names) that cannot apply to a distributed run, and why."""
DEFAULTS = "not_distributed_defaults"
"""Where `configure` keeps those flags' own defaults in the parsed arguments, to see which were given."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The `--workers` flags; call it after every other flag of `migrate parity` is added (it reads their defaults)."""
    group = parser.add_argument_group(
        "distributed (--workers N): the TF1 ps/worker cluster vs its tf.distribute twin, as local processes")
    group.add_argument("--workers", type=int,
                       help="train both sides of the pair (the MNIST net, or --pair FILE's model_fn and Keras "
                            "model) on N local worker processes")
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
    group.add_argument("--modern-python", help="interpreter for the modern side (e.g. a TF 2.21 venv's python)")
    group.add_argument("--timeout", type=float, default=600.0, help="seconds each cluster run may take")
    parser.set_defaults(**{DEFAULTS: {name: parser.get_default(name) for name in NOT_DISTRIBUTED}})


def check_flags(args: argparse.Namespace) -> None:
    """Refuse, with the reason, every flag that cannot apply to a distributed run (before anything loads)."""
    defaults = getattr(args, DEFAULTS)
    clashing = [f"--{name.replace('_', '-')} ({why})" for name, why in NOT_DISTRIBUTED.items()
                if getattr(args, name) != defaults[name]]
    if clashing:
        raise UsageError(f"cannot be combined with --workers: {'; '.join(clashing)}.")
    if args.modern_python and not os.access(args.modern_python, os.X_OK):
        raise UsageError(f"--modern-python {args.modern_python} is not an executable interpreter.")


def config_from_args(args: argparse.Namespace, run: PairRun) -> DistributedConfig:
    """The `DistributedConfig` (after `check_flags`); a setting that cannot work is a `UsageError` saying why."""
    from migrate.parity.distributed.cluster import Fault
    from migrate.parity.distributed.config import DistributedConfig

    try:
        config = DistributedConfig(
            run, workers=args.workers, save_steps=args.save_checkpoints_steps,
            kill=Fault.parse(args.kill) if args.kill else None, timeout=args.timeout,
            pythons={"modern": args.modern_python} if args.modern_python else {},
            replication=args.replication or "sync", evaluator=args.evaluator,
        )
        config.check()
    except ValueError as error:  # a bad --kill, or a DistributedConfigError
        raise UsageError(str(error)) from error
    return config


def pair_run_from_args(args: argparse.Namespace) -> PairRun:
    """The pair (the built-in MNIST one or --pair FILE) and its params, settled as a single-process run settles them."""
    from migrate.parity.distributed.pair_run import pair_run_for
    from migrate.parity.options import ConfigError, from_args, to_stderr
    from migrate.parity.run import prepare_tensorflow_environment

    prepare_tensorflow_environment(to_stderr)
    try:
        return pair_run_for(args.pair, from_args(args))  # a pair that cannot be used is a UsageError itself
    except ConfigError as error:
        raise UsageError(str(error)) from error


def run(args: argparse.Namespace) -> ParityResult:
    """The distributed run the flags ask for, in ``--out``/distributed-run: its verdict (the caller reports it as a
    single-process run's); a role that refused its input is a `UsageError`, one that failed `CommandFailed`."""
    from migrate.parity.distributed.cluster import ClusterError
    from migrate.parity.distributed.run import run_distributed
    from migrate.parity.options import to_stderr

    check_flags(args)  # before the pair loads
    config = config_from_args(args, pair_run_from_args(args))
    try:
        return run_distributed(config, Path(args.out) / "distributed-run", progress=to_stderr)[0]
    except ClusterError as error:
        if error.role_exit_code == 2:  # the role refused its input (the pair, flags, data): the user's to fix
            raise UsageError(str(error)) from error
        raise CommandFailed(str(error)) from error  # a role failed or died: the run found a problem
