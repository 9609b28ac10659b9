"""How far each Keras optimizer drifts from its TF1-exact twin, training the MNIST conv net.

    .venv/bin/python -m bench.optimizer_drift                     # 1000 steps each; writes results/optimizer_drift.{json,md}
    .venv-tf221/bin/python -m bench.optimizer_drift --name optimizer_drift_tf221   # Keras 3
    .venv/bin/python -m bench.optimizer_drift --quick             # 20 steps, nothing written

For every family in `modern.optimizers.flavours.FAMILIES`, two copies of the
conv net start from the same weights (same seed) and train on the same
batches (real MNIST, in order, batch 128, dropout off): one with the exact
twin (`modern/optimizers/`, bit-identical to TF1), one with Keras' own
optimizer given the TF1 hyperparameters (`flavour="native"`). At steps 10,
100 and 1000 it records the relative loss difference of that step,
``|loss_native - loss_exact| / loss_exact``, and the relative weight
difference ``‖w_native - w_exact‖ / ‖w_exact‖`` over all weights. Zero means
bit-identical. Drift is a property of the arithmetic, not of the machine's
load, so one run is enough (the figures are deterministic with
``TF_ENABLE_ONEDNN_OPTS=0``).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from bench.common import (  # noqa: E402
    RESULTS,
    load_average,
    machine,
    markdown_table,
    publish,
    timestamp,
    write_results,
)

HYPERPARAMETERS: dict[str, dict[str, Any]] = {
    "gradient_descent": {"learning_rate": 0.05},
    "momentum": {"learning_rate": 0.01, "momentum": 0.9},
    "adam": {"learning_rate": 1e-3},
    "adagrad": {"learning_rate": 0.05},
    "rmsprop": {"learning_rate": 1e-3},
    "ftrl": {"learning_rate": 0.05},
}
"""TF1 constructor arguments per family: typical values that train the conv net."""

NATIVE_SPELLING = {
    "gradient_descent": "SGD(0.05)",
    "momentum": "SGD(0.01, momentum=0.9)",
    "adam": "Adam(1e-3, epsilon=1e-8)",
    "adagrad": "Adagrad(0.05, epsilon=0)",
    "rmsprop": "RMSprop(1e-3, rho=0.9, epsilon=1e-10)",
    "ftrl": "Ftrl(0.05)",
}


def train(family: str, flavour: str, arrays: dict, steps: int, checkpoints: Sequence[int], batch_size: int, seed: int) -> dict:
    """Per-step losses and flattened weights at `checkpoints` for one optimizer."""
    import keras
    import numpy as np

    from modern.model import build_model
    from modern.optimizers.flavours import make_optimizer
    from modern.pipeline import train_dataset

    model = build_model({"dropout_rate": 0.0, "optimizer": "sgd"}, seed=seed)
    optimizer = make_optimizer(family, flavour, **HYPERPARAMETERS[family])
    model.compile(optimizer=optimizer)
    optimizer.build(model.trainable_variables)
    losses: list[float] = []
    weights: dict[int, Any] = {}

    class Record(keras.callbacks.Callback):
        def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
            losses.append(float(logs["step_loss"]))
            if len(losses) in checkpoints:
                weights[len(losses)] = np.concatenate([np.ravel(np.asarray(w)) for w in model.trainable_variables])

    dataset = train_dataset(arrays["x_train"], arrays["y_train"], batch_size, shuffle_seed=None)
    started = time.perf_counter()
    model.fit(dataset, epochs=1, steps_per_epoch=steps, callbacks=[Record()], verbose=0, shuffle=False)
    return {"losses": losses, "weights": weights, "seconds": time.perf_counter() - started}


def drift(exact: dict, native: dict, checkpoints: Sequence[int]) -> dict[int, dict[str, float]]:
    import numpy as np

    figures = {}
    for step in checkpoints:
        loss_exact, loss_native = exact["losses"][step - 1], native["losses"][step - 1]
        w_exact, w_native = exact["weights"][step], native["weights"][step]
        figures[step] = {
            "loss_exact": loss_exact,
            "loss_native": loss_native,
            "relative_loss_diff": abs(loss_native - loss_exact) / abs(loss_exact),
            "relative_weight_diff": float(np.linalg.norm(w_native - w_exact) / np.linalg.norm(w_exact)),
        }
    return figures


def _cell(figures: dict[str, float]) -> str:
    loss, weights = figures["relative_loss_diff"], figures["relative_weight_diff"]
    if loss == 0.0 and weights == 0.0:
        return "0 (identical)"
    return f"{loss:.1e} / {weights:.1e}"


def previous_results(args: argparse.Namespace) -> dict:
    """The families of an earlier run with the same settings (`--merge`), so a run can be completed in parts."""
    path = args.results_dir / f"{args.name}.json"
    if not path.exists():
        return {}
    earlier = json.loads(path.read_text())
    settings = {"steps": args.steps, "checkpoints": args.checkpoints, "batch_size": args.batch_size, "seed": args.seed}
    if earlier.get("settings") != settings:
        raise SystemExit(f"--merge: {path} was measured with {earlier.get('settings')}, not {settings}")
    return {family: {**result, "drift": {int(step): figures for step, figures in result["drift"].items()}}
            for family, result in earlier["results"].items() if family not in args.families}


def report(args: argparse.Namespace, results: dict, load_before: tuple[float, float, float]) -> tuple[dict, str]:
    """The result file's payload and Markdown table for the families measured so far."""
    payload = {
        "benchmark": "optimizer_drift",
        "when": timestamp(),
        "machine": machine(),
        "load_average": {"before": load_before, "after": load_average()},
        "settings": {"steps": args.steps, "checkpoints": args.checkpoints, "batch_size": args.batch_size, "seed": args.seed},
        "results": results,
    }
    versions = payload["machine"]["versions"]
    header = ["TF1 optimizer", "Keras' own (TF1 hyperparameters)", *(f"step {step}" for step in args.checkpoints)]
    rows = [
        [f"`{family}` {HYPERPARAMETERS[family]}".replace("'", ""), f"`keras.optimizers.{result['native']}`",
         *(_cell(result["drift"][step]) for step in args.checkpoints)]
        for family, result in results.items()
    ]
    markdown = "\n".join([
        f"Drift of Keras' own optimizer from its TF1-exact twin (MNIST conv net, batch {args.batch_size}, dropout off, "
        f"TF {versions.get('tensorflow')}, Keras {versions.get('keras')}): relative |Δloss| of the step / "
        "relative ‖Δweights‖; the exact twins are bit-identical to TF1.",
        "",
        markdown_table(header, rows),
    ])
    return payload, markdown


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.optimizer_drift", description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--checkpoints", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--families", nargs="+", default=list(HYPERPARAMETERS), choices=list(HYPERPARAMETERS))
    parser.add_argument("--quick", action="store_true", help="20 steps, checkpoints 1/10/20, nothing written")
    parser.add_argument("--merge", action="store_true",
                        help="keep the other families of an existing <name>.json measured with the same settings")
    parser.add_argument("--name", default="optimizer_drift")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if args.quick:
        args.steps, args.checkpoints = 20, [1, 10, 20]
    if max(args.checkpoints) > args.steps:
        parser.error(f"--checkpoints {args.checkpoints} go beyond --steps {args.steps}")

    from modern.pipeline import mnist_arrays

    arrays = mnist_arrays()
    load_before = load_average()
    results = previous_results(args) if args.merge else {}
    for family in args.families:
        runs = {flavour: train(family, flavour, arrays, args.steps, args.checkpoints, args.batch_size, args.seed)
                for flavour in ("exact", "native")}
        results[family] = {
            "tf1_arguments": HYPERPARAMETERS[family],
            "native": NATIVE_SPELLING[family],
            "drift": drift(runs["exact"], runs["native"], args.checkpoints),
            "seconds": {flavour: run["seconds"] for flavour, run in runs.items()},
        }
        print(f"[{args.name}] {family}: " + ", ".join(
            f"step {step} {_cell(figures)}" for step, figures in results[family]["drift"].items()), file=sys.stderr, flush=True)
        if not args.quick:
            write_results(args.name, *report(args, results, load_before), results_dir=args.results_dir)
    payload, markdown = report(args, results, load_before)
    publish(args.name, payload, markdown, args.results_dir, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
