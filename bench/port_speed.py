#!/usr/bin/env python3
"""The ported MNIST model against the hand-written one (`modern/model.py`): training steps per second, interleaved.

    .venv/bin/python -m bench.port_speed            # writes results/port_speed.{json,md}
    .venv/bin/python -m bench.port_speed --quick    # 2 short rounds, nothing written

Issue 23 asks the generated model to train at ≥ 0.97× the steps/s of a
hand-written Keras model of the same architecture. Both are built once in
this process (TF 2.15 / Keras 2.15, oneDNN off as in the parity runs), with
the TF1-exact Adam, dropout 0 (the port traced with rate 0 has no dropout
layer), the same batches of 128 real MNIST images; each round fits one and
then the other for the same number of steps, in alternating order, and the
ratio is taken within the round (the median over rounds is reported).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import RESULTS, ROOT, load_average, machine, markdown_table, publish, timestamp

PARAMS = {"batch_size": 128, "optimizer": "adam", "learning_rate": 1e-3, "dropout_rate": 0.0}


def port(out: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TF_ENABLE_ONEDNN_OPTS": "0", "TF_CPP_MIN_LOG_LEVEL": "2"}
    subprocess.run([sys.executable, "-m", "migrate", "port", "legacy.model:model_fn", "--input-fn",
                    "legacy.inputs:mnist_train_input", "--params", json.dumps(PARAMS), "--out", str(out), "--no-check"],
                   check=True, env=env, cwd=ROOT, capture_output=True)


def fit_seconds(model, dataset, steps: int) -> float:
    started = time.perf_counter()
    model.fit(dataset, epochs=1, steps_per_epoch=steps, verbose=0)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args(argv)
    rounds, steps = (2, 20) if args.quick else (args.rounds, args.steps)
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    with tempfile.TemporaryDirectory(prefix="port-speed-") as scratch:
        out = Path(scratch) / "mnist"
        port(out)
        from migrate.core.mnist import load_mnist
        from migrate.port.runtime import source_module
        from modern.model import build_model as hand_written
        from modern.pipeline import train_dataset

        data = load_mnist()
        dataset = train_dataset(data.x_train, data.y_train, PARAMS["batch_size"], shuffle_seed=None)
        ported = source_module(str(out / "keras_model.py")).build_model(dict(PARAMS))
        modern = hand_written({key: PARAMS[key] for key in ("optimizer", "learning_rate", "dropout_rate")})
        models = {"ported": ported, "hand-written": modern}
        for model in models.values():
            fit_seconds(model, dataset, 5)  # trace the train function before timing
        ratios, rows = [], []
        for index in range(rounds):
            order = list(models) if index % 2 == 0 else list(reversed(models))
            seconds = {name: fit_seconds(models[name], dataset, steps) for name in order}
            ratio = seconds["hand-written"] / seconds["ported"]
            ratios.append(ratio)
            rows.append((index + 1, " → ".join(order), f"{steps / seconds['ported']:.1f}",
                         f"{steps / seconds['hand-written']:.1f}", f"{ratio:.3f}"))
    median = statistics.median(ratios)
    context = {"when": timestamp(), "load": " ".join(f"{value:.1f}" for value in load_average()),
               "rounds": rounds, "steps": steps}
    markdown = "\n".join([
        "# The ported MNIST model vs modern/model.py: training steps/s, interleaved", "",
        f"Run {context['when']} (load {context['load']}), {rounds} rounds of {steps} steps, Adam (TF1-exact), "
        f"batch 128, TF 2.15 / Keras 2.15.", "",
        markdown_table(["round", "order", "ported steps/s", "hand-written steps/s", "ported / hand-written"], rows), "",
        f"Median ratio: **{median:.3f}** (issue 23 asks ≥ 0.97)."])
    publish("port_speed", {"context": context, "machine": machine(), "ratios": ratios, "median": median}, markdown,
            RESULTS, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
