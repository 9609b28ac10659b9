"""`migrate parity`: run a pair (a TF1 model_fn and its Keras rebuild) through the staged checks."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from migrate.core.cli import Command, UsageError
from migrate.core.namespace import check_toolkit_packages
from migrate.core.scenarios import SCENARIOS
from migrate.parity.config import MODES, SIDES, ConfigError, ParityConfig, config_for
from migrate.parity.contract import help_block as contract_help_block
from migrate.parity.distributed import command as distributed
from migrate.parity.outputs import check_output_dir, check_output_file, write_parity_outputs
from migrate.parity.pair import BUILTIN_PAIRS, Pair, PairError
from migrate.parity.tolerance import NAMED

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
    parser.add_argument("--pair", default="mnist", help="a pair file (.py) or a built-in pair name (default: mnist)")
    parser.add_argument("--show-mapping", action="store_true",
                        help="print the TF1 variable → Keras weight mapping and exit")
    parser.add_argument("--mode", choices=MODES, default="exact")
    parser.add_argument("--steps", type=int, help="training steps (default: the pair's STEPS, else 200 exact / 2000 statistical)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="set one entry of params for both sides (numbers, true/false, or text)")
    parser.add_argument("--optimizer", help="shortcut for --param optimizer=NAME (MNIST pair: sgd or adam)")
    parser.add_argument(
        "--optimizer-flavour", choices=("exact", "native"),
        help="MNIST pair: the Keras side's optimizer — exact (default): the TF1-exact twin from modern/optimizers, "
        "bit-identical; native: Keras' own, which drifts (shortcut for --modern-override optimizer_flavour=NAME)",
    )
    parser.add_argument("--batch-size", type=int, help="shortcut for --param batch_size=N")
    parser.add_argument("--learning-rate", type=float, help="shortcut for --param learning_rate=X")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--side", choices=SIDES, default="both", help="which sides to train now")
    parser.add_argument(
        "--scenarios", default="all",
        help=f"comma-separated event scenarios the pair runs, 'all' or 'none' ({', '.join(SCENARIOS)})",
    )
    parser.add_argument("--accuracy-bar", type=float, help="minimum accuracy for both (default: the pair's ACCURACY_BAR)")
    parser.add_argument(
        "--max-accuracy-gap", type=float,
        help="allowed |Δ metric| in points (default: 0 for exact sgd, else 0.5)",
    )
    parser.add_argument("--loss-tolerance", type=float, metavar="REL",
                        help="allowed relative |Δloss| at every step, instead of the optimizer's schedule")
    parser.add_argument("--schedule", choices=tuple(NAMED), metavar="NAME",
                        help="hold the per-step losses to a named tolerance schedule whatever the optimizer: "
                        f"{', '.join(NAMED)} (default: the pair's TOLERANCE_SCHEDULE, else by optimizer)")
    parser.add_argument("--forward-tolerance", type=float, default=0.0, metavar="ABS",
                        help="allowed max |Δ| of the forward-pass outputs (default 0.0)")
    parser.add_argument("--out", type=Path, default=Path("parity-out"), help="directory for the JSON, Markdown and PNG outputs")
    parser.add_argument("--no-serving", action="store_true",
                        help="skip stage 6 (export both sides, compare signatures and answers) for a pair that defines it")
    parser.add_argument("--serving-tolerance", type=float, default=0.0, metavar="ABS",
                        help="allowed max |Δ| of the SavedModels' floating-point answers (default 0.0; e.g. against a "
                        "trace of another TensorFlow version whose losses drift)")
    parser.add_argument("--record", type=Path, help="write this run's trace (JSON) here")
    parser.add_argument("--against", type=Path, help="take the legacy side from a recorded trace")
    parser.add_argument("--data-dir", help="MNIST pair: the MNIST directory (else $MNIST_DATA_DIR or the cache)")
    parser.add_argument(
        "--modern-override", action="append", default=[], metavar="KEY=VALUE",
        help="change one modern param only (e.g. adam_epsilon=1e-7) to see what parity reports",
    )
    distributed.configure(parser)


def parse_scenarios(text: str) -> tuple[str, ...]:
    if text == "all":
        return tuple(SCENARIOS)
    if text == "none":
        return ()
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in SCENARIOS]
    if unknown:
        raise UsageError(f"unknown scenario(s) {', '.join(unknown)}; choose from {', '.join(SCENARIOS)}")
    return names


def parse_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def parse_overrides(items: list[str], flag: str = "--modern-override") -> dict[str, Any]:
    overrides = {}
    for item in items:
        key, separator, value = item.partition("=")
        if not separator or not key:
            raise UsageError(f"{flag} expects KEY=VALUE, got {item!r}")
        overrides[key] = parse_value(value)
    return overrides


def config_from_args(args: argparse.Namespace, pair: Pair) -> ParityConfig:
    if args.side == "modern" and args.against is None:
        raise UsageError("--side modern needs --against TRACE holding the legacy side (recorded with --side legacy --record)")
    if args.side != "modern" and args.against is not None:
        raise UsageError("--against supplies the legacy side: use it with --side modern")
    try:
        return config_for(
            pair, mode=args.mode, steps=args.steps, seed=args.seed, params=parse_overrides(args.param, "--param"),
            optimizer=args.optimizer, learning_rate=args.learning_rate, batch_size=args.batch_size,
            scenarios=parse_scenarios(args.scenarios), accuracy_bar=args.accuracy_bar,
            max_accuracy_gap_points=args.max_accuracy_gap, modern_overrides=parse_overrides(args.modern_override),
            loss_tolerance=args.loss_tolerance, forward_tolerance=args.forward_tolerance,
            optimizer_flavour=args.optimizer_flavour, schedule=args.schedule,
        )
    except ConfigError as error:
        raise UsageError(str(error)) from error


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from migrate.core.mapping import mapping_table
    from migrate.parity.pair import load_pair
    from migrate.parity.render import terminal_summary
    from migrate.parity.run import prepare_tensorflow_environment, run_parity, show_mapping
    from migrate.parity.serving.stage import ServingOptions
    from migrate.parity.trace import TraceError

    if args.workers is not None or str(args.pair) in BUILTIN_PAIRS:
        check_toolkit_packages()  # the built-in pair and the role programs import the toolkit's legacy/modern
    check_output_dir(args.out, "--out")  # before training: a finished run must have somewhere to go
    if args.record is not None:
        check_output_file(args.record, "--record")
    if args.workers is not None:
        return distributed.run(args)
    if args.replication is not None or args.kill is not None or args.evaluator:
        raise UsageError("--replication, --kill and --evaluator belong to the distributed comparison: add --workers N.")
    if args.data_dir:
        os.environ["MNIST_DATA_DIR"] = args.data_dir
    try:
        prepare_tensorflow_environment(progress)  # before the pair file imports TensorFlow
        pair = load_pair(args.pair)
        config = config_from_args(args, pair)
        if args.show_mapping:
            print(mapping_table(show_mapping(config, pair, progress=progress)))
            return 0
        result, _ = run_parity(config, pair, side=args.side, against=args.against, record=args.record, progress=progress,
                               serving=ServingOptions(not args.no_serving, args.serving_tolerance, args.out / "serving"))
    except (PairError, TraceError) as error:
        raise UsageError(str(error)) from error
    if result is None:
        print(f"recorded the {args.side} side to {args.record}; compare with --side modern --against {args.record}")
        return 0
    print(terminal_summary(result))
    written, notes = write_parity_outputs(result, args.out)
    print("\nwritten: " + ", ".join(str(path) for path in written.values()))
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
