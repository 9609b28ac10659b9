"""Distributed training throughput: 1 vs 2 workers, TF1 clusters vs their tf.distribute twins, on localhost.

    .venv/bin/python -m bench.distributed                      # committed figures: 3 rounds, 80 steps each
    .venv/bin/python -m bench.distributed --quick              # one short round, writes nothing
    .venv/bin/python -m bench.distributed --modern-python .venv-tf221/bin/python   # modern side on TF 2.21

Every run starts the real role processes with the `migrate parity --workers`
launcher on the built-in MNIST pair (the first 8192 training images), one
cluster at a time so they do not share the CPUs:

* synchronous — legacy: 1 ps + N workers with `SyncReplicasOptimizer`;
  modern: N workers with `MultiWorkerMirroredStrategy`. Each worker trains
  on 64 examples per step (weak scaling: the global batch is 64 × N);
* asynchronous — legacy: 1 ps + N workers applying their own gradients;
  modern: a coordinator, 1 ps and N workers (`ParameterServerStrategy`).
  Every update is one worker's batch of 64 examples, so a step is 64
  examples whatever N (N workers should give up to N times the steps/s).

Steps/s is measured by the chief (the TF2 coordinator in the asynchronous
case) between its first step at or after `--warmup` and its last step, from
the timestamps in its progress file, so process start-up, graph building /
tracing and the final checkpoint are excluded; start-up is reported
separately (launch to the first step).

On this 2-core machine two workers compete for the same cores (and with
the ps, and with the other jobs on the machine): the figures show each
engine's coordination overhead and the 1 → 2 ratio, not a speed-up to
expect from two machines.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.common import RESULTS, Spread, load_average, machine, markdown_table, publish, timestamp

PER_WORKER_BATCH = 64


ENGINES = {
    ("legacy", "sync"): "SyncReplicasOptimizer, 1 ps",
    ("modern", "sync"): "MultiWorkerMirroredStrategy",
    ("legacy", "async"): "asynchronous, 1 ps",
    ("modern", "async"): "ParameterServerStrategy, coordinator + 1 ps",
}
"""The cases, (side, replication) → the engine named in the table."""


def rate_between(timeline: list[tuple[int, float]], warmup: int) -> float:
    """Global steps per second from the first step at or after `warmup` to the last step of the timeline.

    An asynchronous TF1 chief sees only the global steps after its own
    updates (the other workers' steps happen in between), so the rate is
    taken between the steps it saw, not between fixed step numbers.
    """
    (first_step, first_time), (last_step, last_time) = next(p for p in timeline if p[0] >= warmup), timeline[-1]
    return (last_step - first_step) / (last_time - first_time)


def measure(side: str, replication: str, workers: int, steps: int, warmup: int, python: str | None) -> dict:
    """One cluster run of `side` on the MNIST pair; steps/s, examples/s and start-up seconds from the chief's timeline."""
    from migrate.parity.distributed.pair_run import pair_run_for
    from migrate.parity.distributed.run import DistributedConfig, read_timeline, run_side, side_spec
    from migrate.parity.options import ParityOptions

    run = pair_run_for("mnist", ParityOptions(steps=steps, batch_size=PER_WORKER_BATCH * workers,
                                              params={"train_examples": 8192, "eval_examples": 256}))
    config = DistributedConfig(run, workers=workers, save_steps=steps, log_steps=steps, sides=(side,),
                               pythons={side: python} if python else {}, replication=replication)
    spec = side_spec(side, config)
    chief_type, chief_index = spec.trainer_tasks(spec.role_counts(workers))[0]
    with tempfile.TemporaryDirectory(prefix="bench-distributed-") as scratch:
        root = Path(scratch)
        launched = time.time()
        result = run_side(side, config, run.write(root / "pair-run.json"), root, root / "no-initial-weights.npz",
                          progress=lambda _: None)
        timeline = read_timeline(root / side / f"progress-{chief_type}{chief_index}-attempt0.jsonl")
    rate = rate_between(timeline, warmup)
    examples_per_step = PER_WORKER_BATCH * workers if replication == "sync" else PER_WORKER_BATCH
    return {
        "steps_per_s": rate, "examples_per_s": rate * examples_per_step, "examples_per_step": examples_per_step,
        "startup_s": timeline[0][1] - launched, "wall_s": result.attempts[0].seconds,
        "versions": result.chief.versions if result.chief else {},
    }


def run(rounds: int, steps: int, warmup: int, modern_python: str | None, replications: Sequence[str]) -> dict:
    cases = [(side, replication, workers) for replication in replications for workers in (1, 2)
             for side in ("legacy", "modern")]
    samples: dict[str, list[dict]] = {f"{side}/{replication}/{workers}": [] for side, replication, workers in cases}
    for round_index in range(rounds):
        for side, replication, workers in cases:
            sample = measure(side, replication, workers, steps, warmup, modern_python if side == "modern" else None)
            samples[f"{side}/{replication}/{workers}"].append(sample)
            print(f"[distributed] round {round_index + 1}/{rounds} {side} {replication} x{workers}: "
                  f"{sample['steps_per_s']:.2f} steps/s, start-up {sample['startup_s']:.1f} s", file=sys.stderr, flush=True)
    summary = {}
    for key, values in samples.items():
        summary[key] = {
            metric: Spread.of([value[metric] for value in values]).as_dict()
            for metric in ("steps_per_s", "examples_per_s", "startup_s")
        } | {"versions": values[0]["versions"], "examples_per_step": values[0]["examples_per_step"]}
    return summary


def markdown(summary: dict, payload: dict) -> str:
    rows = []
    for side, replication in ENGINES:
        if f"{side}/{replication}/1" not in summary:
            continue
        one = summary[f"{side}/{replication}/1"]["steps_per_s"]["median"]
        for workers in (1, 2):
            entry = summary[f"{side}/{replication}/{workers}"]
            steps = entry["steps_per_s"]
            versions = entry["versions"] or {}
            rows.append((
                f"{side} ({ENGINES[side, replication]})", replication, workers, entry["examples_per_step"],
                f"{steps['median']:.2f} ({steps['min']:.2f}–{steps['max']:.2f})",
                f"{entry['examples_per_s']['median']:.0f}",
                f"{steps['median'] / one:.2f}",
                f"{entry['startup_s']['median']:.1f}",
                " / ".join(f"{k} {v}" for k, v in versions.items()),
            ))
    table = markdown_table(
        ("side", "replication", "workers", "examples per step", "steps/s median (min–max)", "examples/s", "steps/s vs 1 worker",
         "start-up s", "versions"), rows)
    return (f"{table}\n\n{payload['rounds']} rounds of {payload['steps']} steps (rate over steps "
            f"{payload['warmup']}–{payload['steps']}), {machine_note(payload)}")


def machine_note(payload: dict) -> str:
    """"2 CPUs, load average … before / … after; <when>." — the cluster benches share the machine they measure."""
    load = payload["load_average"]
    return (f"{payload['machine']['cpus']} CPUs, load average {load['before'][0]:.2f} before / "
            f"{load['after'][0]:.2f} after; {payload['when']}.")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.distributed", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=80)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--modern-python", help="interpreter for the modern side (default: this one)")
    parser.add_argument("--replication", choices=("sync", "async", "both"), default="both")
    parser.add_argument("--quick", action="store_true", help="1 round of 20 steps; writes nothing")
    parser.add_argument("--name", default="distributed")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.steps, args.warmup = 1, 20, 5
    before = load_average()
    replications = ("sync", "async") if args.replication == "both" else (args.replication,)
    summary = run(args.rounds, args.steps, args.warmup, args.modern_python, replications)
    payload = {
        "benchmark": "distributed", "when": timestamp(), "rounds": args.rounds, "steps": args.steps,
        "warmup": args.warmup, "per_worker_batch": PER_WORKER_BATCH, "machine": machine(),
        "load_average": {"before": before, "after": load_average()}, "results": summary,
    }
    publish(args.name, payload, markdown(summary, payload), args.results_dir, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
