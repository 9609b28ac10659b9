"""`migrate parity`: train legacy and modern side by side and compare them."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from migrate.core.cli import Command, UsageError
from migrate.parity.config import MODES, OPTIMIZERS, SIDES, ParityConfig, default_learning_rate
from migrate.parity.distributed import command as distributed
from migrate.parity.scenarios import SCENARIOS

DEFAULT_STEPS = {"exact": 300, "statistical": 2000}
DEFAULT_OPTIMIZER = {"exact": "sgd", "statistical": "adam"}
DEFAULT_ACCURACY_BAR = {"exact": None, "statistical": 0.98}
DEFAULT_MAX_ACCURACY_GAP_POINTS = {("exact", "sgd"): 0.0}  # bit-identical training: identical accuracy
FALLBACK_MAX_ACCURACY_GAP_POINTS = 0.5

DESCRIPTION = """\
Train the TF1 Estimator (legacy/) and its Keras rebuild (modern/) on MNIST from
the same initial weights and batches, then compare per-step losses, hook vs
callback event sequences, and test accuracy.

  exact        dropout off, same batch order, oneDNN off. SGD must be
               bit-identical; Adam within a growing tolerance (see the report).
  statistical  the real config (dropout 0.5, shuffling, Adam): both must reach
               the accuracy bar and differ by at most 0.5 points.

Cross-version: `--side legacy --record T.json` on TF 2.15, then
`--side modern --against T.json` on TF 2.21 / Keras 3.

Distributed: `--workers 2` trains a TF1 cluster (1 ps + 2 workers,
SyncReplicasOptimizer) and a MultiWorkerMirroredStrategy cluster as local
processes and compares losses, hook/callback actions per role, accuracy and
the files written; `--kill worker:1@50` adds a fault and a restart.

Exit code: 0 parity holds, 1 parity broken, 2 usage error or unusable trace.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mode", choices=MODES, default="exact")
    parser.add_argument("--optimizer", choices=OPTIMIZERS, help="default: sgd in exact mode, adam in statistical mode")
    parser.add_argument("--steps", type=int, help="training steps (default: 300 exact, 2000 statistical)")
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--learning-rate", type=float, help="default: 0.05 for sgd, 1e-3 for adam")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--side", choices=SIDES, default="both", help="which sides to train now")
    parser.add_argument(
        "--scenarios", default="all",
        help=f"comma-separated event scenarios, 'all' or 'none' ({', '.join(SCENARIOS)})",
    )
    parser.add_argument("--accuracy-bar", type=float, help="minimum test accuracy for both (default: 0.98 statistical)")
    parser.add_argument(
        "--max-accuracy-gap", type=float,
        help="allowed |Δ test accuracy| in points (default: 0 for exact sgd, else 0.5)",
    )
    parser.add_argument("--out", type=Path, default=Path("parity-out"), help="directory for the JSON, Markdown and PNG outputs")
    parser.add_argument("--record", type=Path, help="write this run's trace (JSON) here")
    parser.add_argument("--against", type=Path, help="take the legacy side from a recorded trace")
    parser.add_argument("--data-dir", help="MNIST directory (else $MNIST_DATA_DIR or the cache)")
    parser.add_argument(
        "--modern-override", action="append", default=[], metavar="KEY=VALUE",
        help="change one modern hyperparameter (e.g. adam_epsilon=1e-7) to see what parity reports",
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


def parse_overrides(items: list[str]) -> tuple[tuple[str, float | str], ...]:
    overrides = []
    for item in items:
        key, separator, value = item.partition("=")
        if not separator or not key:
            raise UsageError(f"--modern-override expects KEY=VALUE, got {item!r}")
        try:
            overrides.append((key, float(value)))
        except ValueError:
            overrides.append((key, value))
    return tuple(overrides)


def config_from_args(args: argparse.Namespace) -> ParityConfig:
    steps = args.steps if args.steps is not None else DEFAULT_STEPS[args.mode]
    optimizer = args.optimizer or DEFAULT_OPTIMIZER[args.mode]
    if steps < 1 or args.batch_size < 1:
        raise UsageError("--steps and --batch-size must be positive")
    if args.side == "modern" and args.against is None:
        raise UsageError("--side modern needs --against TRACE holding the legacy side (recorded with --side legacy --record)")
    if args.side != "modern" and args.against is not None:
        raise UsageError("--against supplies the legacy side: use it with --side modern")
    accuracy_bar = args.accuracy_bar if args.accuracy_bar is not None else DEFAULT_ACCURACY_BAR[args.mode]
    return ParityConfig(
        mode=args.mode,
        optimizer=optimizer,
        steps=steps,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate if args.learning_rate is not None else default_learning_rate(optimizer),
        seed=args.seed,
        scenarios=parse_scenarios(args.scenarios),
        accuracy_bar=accuracy_bar,
        max_accuracy_gap=(args.max_accuracy_gap if args.max_accuracy_gap is not None
                          else DEFAULT_MAX_ACCURACY_GAP_POINTS.get((args.mode, optimizer), FALLBACK_MAX_ACCURACY_GAP_POINTS)) / 100.0,
        modern_overrides=parse_overrides(args.modern_override),
    )


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def write_outputs(result, out: Path) -> dict[str, Path]:
    from migrate.parity.plot import plot_losses
    from migrate.parity.render import markdown_report

    out.mkdir(parents=True, exist_ok=True)
    written = {"summary": out / "parity-summary.json", "report": out / "parity-report.md", "plot": out / "parity-losses.png"}
    written["summary"].write_text(json.dumps(result.summary(), indent=2, allow_nan=True))
    plot_losses(result, written["plot"])
    written["report"].write_text(markdown_report(result, written["plot"].name))
    return written


def run(args: argparse.Namespace) -> int:
    if args.workers is not None:
        return distributed.run(args)
    from migrate.core.mnist import MnistDataError, load_mnist
    from migrate.parity.render import terminal_summary
    from migrate.parity.run import run_parity
    from migrate.parity.trace import TraceError

    config = config_from_args(args)
    try:
        data = load_mnist(args.data_dir)
    except MnistDataError as error:
        raise UsageError(str(error)) from error
    try:
        result, _ = run_parity(config, data, side=args.side, against=args.against, record=args.record, progress=progress)
    except TraceError as error:
        raise UsageError(str(error)) from error
    if result is None:
        print(f"recorded the {args.side} side to {args.record}; compare with --side modern --against {args.record}")
        return 0
    print(terminal_summary(result))
    written = write_outputs(result, args.out)
    print("\nwritten: " + ", ".join(str(path) for path in written.values()))
    return 0 if result.ok else 1


COMMAND = Command(
    name="parity",
    help="train legacy and modern side by side and compare losses, events and accuracy",
    description=DESCRIPTION,
    configure=configure,
    run=run,
)
