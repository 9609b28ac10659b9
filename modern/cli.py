"""`python -m modern train|evaluate|predict`: the legacy commands, on Keras.

Flags share their names and validation with `python -m legacy` (one CLI kit,
`migrate.core.cli`), so a command line moves from one side to the other.

Exit codes: 0 success, 1 training failed (NaN loss), 2 usage error (bad
flags, no checkpoint where one is needed, unreadable data).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from migrate.core.cli import (
    Command,
    CommandFailed,
    Program,
    UsageError,
    positive_float,
    positive_int,
    rate,
    run_commands,
)

OPTIMIZER_FLAVOURS = ("exact", "native")
DEFAULT_OPTIMIZER_FLAVOUR = "exact"
"""`modern.optimizers.flavours.FLAVOURS`/`DEFAULT_FLAVOUR`, spelled out: parsing must not import Keras."""


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model-dir", required=True, help="checkpoints and TensorBoard logs")
    parser.add_argument("--data-dir", help="MNIST as .npy/IDX files (memory-mapped) or anything migrate.core.mnist reads")
    parser.add_argument("--batch-size", type=positive_int, default=128)
    parser.add_argument("--optimizer", choices=("adam", "sgd"), default="adam")
    parser.add_argument(
        "--optimizer-flavour", choices=OPTIMIZER_FLAVOURS, default=DEFAULT_OPTIMIZER_FLAVOUR,
        help="exact: TF1's optimizer updates bit for bit (modern/optimizers); native: Keras' own optimizer. "
        "Evaluate/predict need the optimizer and flavour a checkpoint was trained with.",
    )


def _configure_train(parser: argparse.ArgumentParser) -> None:
    _common(parser)
    parser.add_argument("--steps", type=positive_int, default=2000,
                        help="global step to train to (a resumed run continues to it)")
    parser.add_argument("--learning-rate", type=positive_float, default=1e-3)
    parser.add_argument("--dropout-rate", type=rate, default=0.5)
    parser.add_argument("--seed", type=int, default=0, help="initializers, dropout and the per-epoch permutation")
    parser.add_argument("--no-shuffle", action="store_true", help="order-preserving batches (the parity mode)")
    parser.add_argument("--save-checkpoints-steps", type=positive_int, default=500)
    parser.add_argument("--log-step-count-steps", type=positive_int, default=100)
    parser.add_argument(
        "--init-from-tf1", metavar="CHECKPOINT",
        help="start from a TF1/Estimator checkpoint (its model dir or a prefix): weights, optimizer slots and "
        "global step (modern/tf1_checkpoint.py); ignored once --model-dir holds a checkpoint",
    )


def _configure_evaluate(parser: argparse.ArgumentParser) -> None:
    _common(parser)
    parser.add_argument("--steps", type=positive_int, default=None, help="number of batches (default: all)")


def _configure_predict(parser: argparse.ArgumentParser) -> None:
    _configure_evaluate(parser)
    parser.add_argument("--show", type=int, default=10, help="print this many predictions")


@contextmanager
def _user_errors() -> Iterator[None]:
    """Turn the errors a user can fix into `UsageError` and a NaN loss into `CommandFailed`; bugs keep tracebacks."""
    from migrate.core.mnist import MnistDataError
    from modern.callbacks.nan_tensor import NanLossDuringTrainingError
    from modern.pipeline import PipelineError
    from modern.tf1_checkpoint import TF1CheckpointError
    from modern.training import CheckpointMissingError, quiet_tensorflow_logging

    quiet_tensorflow_logging()
    try:
        yield
    except NanLossDuringTrainingError as error:
        raise CommandFailed(str(error)) from error
    except (CheckpointMissingError, PipelineError, MnistDataError, TF1CheckpointError) as error:
        raise UsageError(str(error)) from error


def run_train(args: argparse.Namespace) -> int:
    with _user_errors():
        from migrate.core.checkpoint_check import resume_point
        from modern.training import TrainConfig, train_model

        resume_point(args.model_dir, lambda message: print(message, file=sys.stderr, flush=True))
        config = TrainConfig(
            model_dir=args.model_dir, data_dir=args.data_dir, steps=args.steps, batch_size=args.batch_size,
            learning_rate=args.learning_rate, optimizer=args.optimizer, dropout_rate=args.dropout_rate,
            seed=args.seed, shuffle=not args.no_shuffle, save_steps=args.save_checkpoints_steps,
            log_steps=args.log_step_count_steps, optimizer_flavour=args.optimizer_flavour,
            init_from_tf1=args.init_from_tf1,
        )
        result = train_model(config)
    state = "interrupted, saved" if result["interrupted"] else "done"
    print(f"train: steps {result['start_step']} -> {result['global_step']} ({state}); model dir {args.model_dir}")
    return 0


def run_evaluate(args: argparse.Namespace) -> int:
    with _user_errors():
        from modern.training import evaluate_model

        metrics = evaluate_model(
            args.model_dir, args.data_dir, args.batch_size, args.steps, args.optimizer, args.optimizer_flavour
        )
    print(f"evaluate: global_step {metrics['global_step']}, loss {metrics['loss']:.4f}, "
          f"accuracy {metrics['accuracy']:.4f}")
    return 0


def run_predict(args: argparse.Namespace) -> int:
    with _user_errors():
        from modern.training import predict_model

        classes, labels = predict_model(
            args.model_dir, args.data_dir, args.batch_size, args.steps, args.optimizer, args.optimizer_flavour
        )
    for index in range(min(args.show, len(classes))):
        print(f"{index}\tpredicted {classes[index]}\tlabel {labels[index]}")
    print(f"predict: {len(classes)} images, accuracy {float((classes == labels).mean()):.4f}")
    return 0


COMMANDS = (
    Command("train", "train to --steps (absolute global step), resuming from --model-dir", _configure_train, run_train),
    Command("evaluate", "loss/accuracy of the latest checkpoint on the test set", _configure_evaluate, run_evaluate),
    Command("predict", "predicted classes of the latest checkpoint on the test set", _configure_predict, run_predict),
)
PROGRAM = Program(prog="python -m modern", description="Train/evaluate/predict the MNIST conv net with Keras.")


def main(argv: Sequence[str] | None = None) -> int:
    return run_commands(PROGRAM, COMMANDS, argv)
