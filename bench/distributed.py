"""Distributed training throughput: 1 vs 2 workers, TF1 cluster vs MultiWorkerMirroredStrategy, on localhost.

    .venv/bin/python -m bench.distributed                      # committed figures: 3 rounds, 80 steps each
    .venv/bin/python -m bench.distributed --quick              # one short round, writes nothing
    .venv/bin/python -m bench.distributed --modern-python .venv-tf221/bin/python   # modern side on TF 2.21

Every run starts the real role processes with the `migrate parity --workers`
launcher (legacy: 1 ps + N workers with `SyncReplicasOptimizer`; modern: N
workers with `MultiWorkerMirroredStrategy`), one side at a time so they do
not share the CPUs. Each worker trains on 64 examples per step (weak
scaling: the global batch is 64 × N). Steps/s is measured by the chief
between the end of step `--warmup` and the last step, from the timestamps in
its progress file, so process start-up, graph building / tracing and the
final checkpoint are excluded; start-up is reported separately (launch to
the first step).

On this 2-core machine two workers compete for the same cores (and with
the ps, and with the other jobs on the machine): the figures show each
engine's coordination overhead and the 1 → 2 ratio, not a speed-up to
expect from two machines.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.common import RESULTS, Spread, load_average, machine, markdown_table, publish, timestamp

PER_WORKER_BATCH = 64


def chief_timeline(path: Path) -> list[tuple[int, float]]:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [(int(line["step"]), float(line["time"])) for line in lines]


def measure(side: str, workers: int, steps: int, warmup: int, data, python: str | None) -> dict:
    """One cluster run of `side`; steps/s, examples/s and start-up seconds from the chief's timeline."""
    from migrate.parity.distributed.run import DistributedConfig, run_side, write_data

    config = DistributedConfig(
        workers=workers, steps=steps, global_batch_size=PER_WORKER_BATCH * workers, save_steps=steps,
        log_steps=steps, train_examples=8192, test_examples=256, sides=(side,),
        pythons={side: python} if python else {},
    )
    with tempfile.TemporaryDirectory(prefix="bench-distributed-") as scratch:
        root = Path(scratch)
        data_path = write_data(data, root / "data.npz", config.train_examples, config.test_examples)
        launched = time.time()
        result = run_side(side, config, data_path, root, root / "no-initial-weights.npz", progress=lambda _: None)
        timeline = chief_timeline(root / side / "progress-worker0-attempt0.jsonl")
    times = dict(timeline)
    seconds = times[steps] - times[warmup]
    rate = (steps - warmup) / seconds
    return {
        "steps_per_s": rate, "examples_per_s": rate * config.global_batch_size,
        "startup_s": timeline[0][1] - launched, "wall_s": result["attempts"][0]["seconds"],
        "versions": result["versions"],
    }


def run(rounds: int, steps: int, warmup: int, modern_python: str | None) -> dict:
    from migrate.core.mnist import load_mnist

    data = load_mnist()
    cases = [(side, workers) for workers in (1, 2) for side in ("legacy", "modern")]
    samples: dict[str, list[dict]] = {f"{side}/{workers}": [] for side, workers in cases}
    for round_index in range(rounds):
        for side, workers in cases:
            sample = measure(side, workers, steps, warmup, data, modern_python if side == "modern" else None)
            samples[f"{side}/{workers}"].append(sample)
            print(f"[distributed] round {round_index + 1}/{rounds} {side} x{workers}: "
                  f"{sample['steps_per_s']:.2f} steps/s, start-up {sample['startup_s']:.1f} s", file=sys.stderr, flush=True)
    summary = {}
    for key, values in samples.items():
        summary[key] = {
            metric: Spread.of([value[metric] for value in values]).as_dict()
            for metric in ("steps_per_s", "examples_per_s", "startup_s")
        } | {"versions": values[0]["versions"]}
    return summary


def markdown(summary: dict, payload: dict) -> str:
    rows = []
    for side in ("legacy", "modern"):
        one = summary[f"{side}/1"]["steps_per_s"]["median"]
        for workers in (1, 2):
            entry = summary[f"{side}/{workers}"]
            steps = entry["steps_per_s"]
            versions = entry["versions"] or {}
            engine = ("SyncReplicasOptimizer, 1 ps" if side == "legacy" else "MultiWorkerMirroredStrategy")
            rows.append((
                f"{side} ({engine})", workers, PER_WORKER_BATCH * workers,
                f"{steps['median']:.2f} ({steps['min']:.2f}–{steps['max']:.2f})",
                f"{entry['examples_per_s']['median']:.0f}",
                f"{steps['median'] / one:.2f}",
                f"{entry['startup_s']['median']:.1f}",
                " / ".join(f"{k} {v}" for k, v in versions.items()),
            ))
    table = markdown_table(
        ("side", "workers", "global batch", "steps/s median (min–max)", "examples/s", "steps/s vs 1 worker",
         "start-up s", "versions"), rows)
    load = payload["load_average"]
    return (f"{table}\n\n{payload['rounds']} rounds of {payload['steps']} steps (rate over steps "
            f"{payload['warmup']}–{payload['steps']}), {payload['machine']['cpus']} CPUs, load average "
            f"{load['before'][0]:.2f} before / {load['after'][0]:.2f} after; {payload['when']}.")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.distributed", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=80)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--modern-python", help="interpreter for the modern side (default: this one)")
    parser.add_argument("--quick", action="store_true", help="1 round of 20 steps; writes nothing")
    parser.add_argument("--name", default="distributed")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.steps, args.warmup = 1, 20, 5
    before = load_average()
    summary = run(args.rounds, args.steps, args.warmup, args.modern_python)
    payload = {
        "benchmark": "distributed", "when": timestamp(), "rounds": args.rounds, "steps": args.steps,
        "warmup": args.warmup, "per_worker_batch": PER_WORKER_BATCH, "machine": machine(),
        "load_average": {"before": before, "after": load_average()}, "results": summary,
    }
    publish(args.name, payload, markdown(summary, payload), args.results_dir, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
