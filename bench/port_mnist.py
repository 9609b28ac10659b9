#!/usr/bin/env python3
"""`migrate port` on legacy/'s MNIST model_fn with its placeholder input: the acceptance run of issue 23.

    .venv/bin/python -m bench.port_mnist            # writes results/port_mnist.{json,md}
    .venv/bin/python -m bench.port_mnist --quick    # 20 steps, nothing written

1. `migrate port legacy.model:model_fn --input-fn legacy.inputs:mnist_train_input`
   with SGD params, its own parity check over 300 steps (the port's wall time,
   check included, is the speed figure: issue 23 asks under 3 minutes);
2. `migrate parity --pair OUT/pair.py --optimizer adam --learning-rate 0.001`
   over 300 steps on the same written pair, no hand edit (the TF1-exact Adam).
Exits 1 when either does not hold bit-identically.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import RESULTS, ROOT, load_average, machine, markdown_table, publish, timestamp

PARAMS = {"batch_size": 128, "optimizer": "sgd", "learning_rate": 0.05, "dropout_rate": 0.0}


def run(command: list[str]) -> tuple[int, float, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TF_ENABLE_ONEDNN_OPTS": "0", "TF_CPP_MIN_LOG_LEVEL": "2"}
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "migrate", *command], capture_output=True, text=True, env=env, cwd=ROOT)
    return result.returncode, time.monotonic() - started, result.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 steps, nothing written")
    args = parser.parse_args(argv)
    steps = 20 if args.quick else 300
    rows, records = [], []
    with tempfile.TemporaryDirectory(prefix="port-mnist-") as scratch:
        out = Path(scratch) / "mnist"
        code, seconds, stdout = run(["port", "legacy.model:model_fn", "--input-fn", "legacy.inputs:mnist_train_input",
                                     "--params", json.dumps(PARAMS), "--out", str(out), "--steps", str(steps)])
        records.append({"run": "port + check (SGD)", "exit_code": code, "seconds": round(seconds, 1),
                        "summary": [line for line in stdout.splitlines() if "max |Δ" in line or "PARITY" in line]})
        code2, seconds2, stdout2 = run(["parity", "--pair", str(out / "pair.py"), "--optimizer", "adam",
                                        "--learning-rate", "0.001", "--steps", str(steps), "--scenarios", "none",
                                        "--out", str(Path(scratch) / "adam")])
        adam = json.loads((Path(scratch) / "adam" / "parity-summary.json").read_text())
        records.append({"run": "parity on the written pair (Adam)", "exit_code": code2, "seconds": round(seconds2, 1),
                        "max_abs_loss_diff": adam["losses"]["max_abs_loss_diff"],
                        "steps_compared": adam["losses"]["steps_compared"],
                        "summary": [line for line in stdout2.splitlines() if "max |Δ" in line or "PARITY" in line]})
    for record in records:
        rows.append((record["run"], record["exit_code"], record["seconds"], "<br>".join(record["summary"])))
    context = {"when": timestamp(), "load": " ".join(f"{value:.1f}" for value in load_average()), "steps": steps}
    markdown = "\n".join([
        "# `migrate port` on legacy/'s MNIST model_fn (placeholder input)", "",
        f"Run {context['when']} (load {context['load']}), {steps} steps each, no hand edit between the two runs.", "",
        markdown_table(["run", "exit", "s", "verdict"], rows)])
    publish("port_mnist", {"context": context, "machine": machine(), "params": PARAMS, "results": records},
            markdown, RESULTS, args.quick)
    return 0 if all(record["exit_code"] == 0 for record in records) else 1


if __name__ == "__main__":
    raise SystemExit(main())
