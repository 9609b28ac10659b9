"""`python -m modern train|evaluate|predict`: the legacy commands, on Keras.

Exit codes: 0 success, 1 training failed (NaN loss), 2 usage error (bad
flags, no checkpoint where one is needed, unreadable data).
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model-dir", required=True, help="checkpoints and TensorBoard logs")
    parser.add_argument("--data-dir", help="MNIST as .npy/IDX files (memory-mapped) or anything migrate.core.mnist reads")
    parser.add_argument("--batch-size", type=int, default=128)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m modern", description="Train/evaluate/predict the MNIST conv net with Keras.")
    commands = parser.add_subparsers(dest="command", required=True)
    train = commands.add_parser("train", help="train to --steps (absolute global step), resuming from --model-dir")
    _common(train)
    train.add_argument("--steps", type=int, default=2000, help="global step to train to (a resumed run continues to it)")
    train.add_argument("--learning-rate", type=float, default=1e-3)
    train.add_argument("--optimizer", choices=("adam", "sgd"), default="adam")
    train.add_argument("--dropout-rate", type=float, default=0.5)
    train.add_argument("--seed", type=int, default=0, help="initializers, dropout and the per-epoch permutation")
    train.add_argument("--no-shuffle", action="store_true", help="order-preserving batches (the parity mode)")
    train.add_argument("--save-steps", type=int, default=500)
    train.add_argument("--log-steps", type=int, default=100)
    for name, help_text in (("evaluate", "loss/accuracy of the latest checkpoint on the test set"),
                            ("predict", "predicted classes of the latest checkpoint on the test set")):
        sub = commands.add_parser(name, help=help_text)
        _common(sub)
        sub.add_argument("--steps", type=int, default=None, help="number of batches (default: all)")
    commands.choices["predict"].add_argument("--show", type=int, default=10, help="print this many predictions")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from modern.callbacks.nan_tensor import NanLossDuringTrainingError
    from modern.pipeline import PipelineError
    from modern.training import CheckpointMissingError, TrainConfig, evaluate_model, predict_model, quiet_tensorflow_logging, train_model
    from migrate.core.mnist import MnistDataError

    quiet_tensorflow_logging()
    try:
        if args.command == "train":
            config = TrainConfig(
                model_dir=args.model_dir, data_dir=args.data_dir, steps=args.steps, batch_size=args.batch_size,
                learning_rate=args.learning_rate, optimizer=args.optimizer, dropout_rate=args.dropout_rate,
                seed=args.seed, shuffle=not args.no_shuffle, save_steps=args.save_steps, log_steps=args.log_steps,
            )
            result = train_model(config)
            state = "interrupted, saved" if result["interrupted"] else "done"
            print(f"train: steps {result['start_step']} -> {result['global_step']} ({state}); model dir {args.model_dir}")
        elif args.command == "evaluate":
            metrics = evaluate_model(args.model_dir, args.data_dir, args.batch_size, args.steps)
            print(f"evaluate: global_step {metrics['global_step']}, loss {metrics['loss']:.4f}, accuracy {metrics['accuracy']:.4f}")
        else:
            classes, labels = predict_model(args.model_dir, args.data_dir, args.batch_size, args.steps)
            for index in range(min(args.show, len(classes))):
                print(f"{index}\tpredicted {classes[index]}\tlabel {labels[index]}")
            print(f"predict: {len(classes)} images, accuracy {float((classes == labels).mean()):.4f}")
    except NanLossDuringTrainingError as error:
        print(f"modern {args.command}: {error}", file=sys.stderr)
        return 1
    except (CheckpointMissingError, PipelineError, MnistDataError, ValueError) as error:
        print(f"modern {args.command}: error: {error}", file=sys.stderr)
        return 2
    return 0
