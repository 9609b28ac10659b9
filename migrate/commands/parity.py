"""`migrate parity`: run a pair (a TF1 model_fn and its Keras rebuild) through the staged checks."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from migrate.core.cli import Command, UsageError
from migrate.core.namespace import check_toolkit_packages
from migrate.parity.config import SIDES, ParityConfig, config_for
from migrate.parity.contract import help_block as contract_help_block
from migrate.parity.distributed import command as distributed
from migrate.parity.options import FLAGS, ConfigError, ParityOptions, to_stderr
from migrate.parity.options import add_flags as add_option_flags
from migrate.parity.options import from_args as options_from_args
from migrate.parity.outputs import check_output_dir, check_output_file, write_parity_outputs
from migrate.parity.pair import BUILTIN_PAIRS, Pair, PairError

if TYPE_CHECKING:
    from migrate.parity.result import ParityResult

DESCRIPTION = f"""\
Train a TF1 Estimator model_fn and its Keras rebuild from the same initial
weights (the TF1 initial values, copied) on the same batches, and check in
stages, stopping at the first that fails:

  1 variables    counts, shapes, dtypes; constant initialisers; the mapped
                 non-trainable state (batch-norm moving statistics)
  2 forward      inference outputs on the first batch
  3 one step     the loss, then every variable and state after the update
                 (the first step that updates any), named, in ulp
  4 N steps      per-step losses (tolerance by optimizer or --schedule), event
                 sequences; at the first step beyond tolerance both sides are
                 replayed and every variable compared before and after it
  5 evaluation   the metrics both sides report on the eval input
  6 serving      both SavedModels: signatures, method names, input/output keys,
                 dtypes, shapes, and the answers to the same 256 requests

The pair file (--pair FILE; default: the built-in MNIST pair, {', '.join(BUILTIN_PAIRS)})
defines, with `params` the dict every function gets:

{contract_help_block()}

Modes: exact (per-step losses: SGD bit-identical, Adam within a growing
tolerance) and statistical (accuracy decides; the MNIST pair turns dropout
and shuffling on). Cross-version: `--side legacy --record T.json` on TF 2.15,
then `--side modern --against T.json` on TF 2.21 / Keras 3.

Distributed: `--workers 2` trains a TF1 cluster (1 ps + 2 workers,
SyncReplicasOptimizer) and a MultiWorkerMirroredStrategy cluster as local
processes and compares losses, hook/callback actions per role, accuracy and
the files written; `--kill worker:1@50` adds a fault and a restart;
`--evaluator` runs the Estimator deployment instead (`train_and_evaluate`
with chief, worker, ps and evaluator vs MultiWorkerMirroredStrategy workers
and a sidecar evaluator) and compares the evaluators' per-checkpoint metrics.

Exit code: 0 parity holds, 1 parity broken (the first failing stage is named),
2 usage error: a pair that does not import, lacks a name or raises; variables
that cannot be mapped; datasets that differ in batch size or structure or run
out before --steps; an unusable trace; --optimizer NAME that neither side
trains with; a statistical run shorter than its bars' calibration.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """The command-line-only flags, then one per parity option (`migrate.parity.options`), then the distributed ones."""
    parser.add_argument("--pair", default="mnist", help="a pair file (.py) or a built-in pair name (default: mnist)")
    parser.add_argument("--show-mapping", action="store_true",
                        help="print the TF1 variable → Keras weight mapping and exit")
    parser.add_argument("--side", choices=SIDES, default="both", help="which sides to train now")
    parser.add_argument("--out", type=Path, default=Path("parity-out"), help="directory for the JSON, Markdown and PNG outputs")
    parser.add_argument("--record", type=Path, help="write this run's trace (JSON) here")
    parser.add_argument("--against", type=Path, help="take the legacy side from a recorded trace")
    parser.add_argument("--data-dir", help="MNIST pair: the MNIST directory (else $MNIST_DATA_DIR or the cache)")
    parser.add_argument("--train-examples", type=int, metavar="N",
                        help="MNIST pair: train on the first N training images (the older spelling of --param "
                             "train_examples=N)")
    parser.add_argument("--test-examples", type=int, metavar="N",
                        help="MNIST pair: evaluate on the first N test images (the older spelling of --param "
                             "eval_examples=N)")
    add_option_flags(parser)
    distributed.configure(parser)


PARAM_ALIASES = {"train_examples": "train_examples", "test_examples": "eval_examples"}
"""The MNIST pair's flags from before ``--param`` (their argparse names → the params key each sets): kept so the
commands written with them still run, single-process and distributed."""


def apply_param_aliases(args: argparse.Namespace) -> None:
    """Turn ``--train-examples N`` / ``--test-examples N`` into the ``--param`` items they stand for, put before the
    given ones (an explicit ``--param`` of the same key wins)."""
    dest = FLAGS["params"].dest
    aliases = [f"{key}={getattr(args, name)}" for name, key in PARAM_ALIASES.items() if getattr(args, name) is not None]
    setattr(args, dest, [*aliases, *(getattr(args, dest) or [])])


def config_from_args(args: argparse.Namespace, pair: Pair) -> tuple[ParityOptions, ParityConfig]:
    if args.side == "modern" and args.against is None:
        raise UsageError("--side modern needs --against TRACE holding the legacy side (recorded with --side legacy --record)")
    if args.side != "modern" and args.against is not None:
        raise UsageError("--against supplies the legacy side: use it with --side modern")
    try:
        options = options_from_args(args, progress=to_stderr)
        return options, config_for(pair, options)
    except ConfigError as error:
        raise UsageError(str(error)) from error


def run(args: argparse.Namespace) -> int:
    from migrate.core.mapping import mapping_table
    from migrate.parity.pair import load_pair
    from migrate.parity.run import prepare_tensorflow_environment, run_parity, show_mapping
    from migrate.parity.trace import TraceError

    if args.workers is not None or str(args.pair) in BUILTIN_PAIRS:
        check_toolkit_packages()  # the built-in pair and the role programs import the toolkit's legacy/modern
    check_output_dir(args.out, "--out")  # before training: a finished run must have somewhere to go
    if args.record is not None:
        check_output_file(args.record, "--record")
    if args.data_dir:
        os.environ["MNIST_DATA_DIR"] = args.data_dir  # the MNIST pair reads it, in this process and in every role
    apply_param_aliases(args)
    if args.workers is not None:
        return report(distributed.run(args), args.out, f"; checkpoints and logs in {args.out / 'distributed-run'}")
    if args.replication is not None or args.kill is not None or args.evaluator:
        raise UsageError("--replication, --kill and --evaluator belong to the distributed comparison: add --workers N.")
    try:
        prepare_tensorflow_environment(to_stderr)  # before the pair file imports TensorFlow
        pair = load_pair(args.pair)
        options, config = config_from_args(args, pair)
        if args.show_mapping:
            print(mapping_table(show_mapping(config, pair, progress=to_stderr)))
            return 0
        result, _ = run_parity(config, pair, options, side=args.side, against=args.against, record=args.record,
                               serving_dir=args.out / "serving")
    except (PairError, TraceError) as error:
        raise UsageError(str(error)) from error
    if result is None:
        print(f"recorded the {args.side} side to {args.record}; compare with --side modern --against {args.record}")
        return 0
    return report(result, args.out)


def report(result: ParityResult, out: Path, where_else: str = "") -> int:
    """A finished run, single-process or distributed: its summary printed, its outputs written into `out` (and
    named, with `where_else` the run's other files), their notes on stderr; exit 0 when parity holds, else 1."""
    from migrate.parity.render import terminal_summary

    print(terminal_summary(result))
    written, notes = write_parity_outputs(result, out)
    print("\nwritten: " + ", ".join(str(path) for path in written.values()) + where_else)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return 0 if result.ok else 1


COMMAND = Command(
    name="parity",
    help="check that a TF1 model_fn and its Keras rebuild train the same (a pair file; default: MNIST)",
    description=DESCRIPTION,
    configure=configure,
    run=run,
)
