"""What stage 6 (serving) adds to `migrate parity`: the default MNIST run with and without it.

    .venv/bin/python -m bench.serving_cost              # the default run (300 steps, every scenario), 2 rounds
    .venv/bin/python -m bench.serving_cost --quick      # 5 steps, no scenarios, 1 round, nothing written

Each round runs ``python -m migrate parity`` twice as subprocesses, the
default way and with ``--no-serving``, in alternating order, and records the
wall time of each and the stage's own time (the run's progress line
``[serving] exported, loaded and compared in N s``: two exports, two loads,
256 requests per signature; not in the summary, which must not change
between runs). The
difference of the wall times is noisy on a shared machine; the stage's own
time is the steadier figure. Results: `results/serving_cost.{json,md}`.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.common import RESULTS, ROOT, Spread, load_average, machine, markdown_table, publish, timestamp

STAGE_TIME = re.compile(r"\[serving\] exported, loaded and compared in ([0-9.]+) s")


def run_parity(arguments: Sequence[str], out: Path) -> tuple[float, dict[str, Any], float | None]:
    """(wall seconds, the summary, stage 6's own seconds or None) of one `migrate parity` subprocess."""
    environment = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "TF_ENABLE_ONEDNN_OPTS": "0"}
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "migrate", "parity", *arguments, "--out", str(out)],
                            cwd=ROOT, env=environment, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"migrate parity {' '.join(arguments)} exited {result.returncode}:\n{result.stderr[-2000:]}")
    stage_time = STAGE_TIME.search(result.stderr)
    return wall, json.loads((out / "parity-summary.json").read_text()), float(stage_time[1]) if stage_time else None


def measure(steps: Sequence[str], rounds: int) -> dict[str, Any]:
    walls: dict[str, list[float]] = {"with serving": [], "--no-serving": []}
    stage_seconds: list[float] = []
    order = list(walls)
    with tempfile.TemporaryDirectory(prefix="serving-cost-") as scratch:
        for index in range(rounds):
            for name in order if index % 2 == 0 else order[::-1]:
                extra = ["--no-serving"] if name == "--no-serving" else []
                wall, summary, seconds = run_parity([*steps, *extra], Path(scratch) / f"{index}-{len(extra)}")
                walls[name].append(wall)
                if not extra:
                    stage = summary["stages"][-1]
                    if stage["stage"] != "serving" or stage["status"] != "ok" or seconds is None:
                        raise SystemExit(f"the serving stage did not pass: {stage['message']}")
                    stage_seconds.append(seconds)
                print(f"[serving_cost] round {index + 1}: {name} {wall:.1f} s", file=sys.stderr, flush=True)
    return {"wall_seconds": {name: Spread.of(values).as_dict() for name, values in walls.items()},
            "stage_seconds": Spread.of(stage_seconds).as_dict()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 steps, no scenarios, 1 round, nothing written")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    steps = ["--steps", "5", "--scenarios", "none"] if args.quick else []
    rounds = 1 if args.quick else args.rounds
    load_before = load_average()
    measured = measure(steps, rounds)
    payload = {"when": timestamp(), "machine": machine(), "load_average": {"before": load_before, "after": load_average()},
               "command": "migrate parity " + " ".join(steps), "rounds": rounds, **measured}
    walls, stage = measured["wall_seconds"], measured["stage_seconds"]
    rows = [[name, f"{spread['median']:.1f}", f"{spread['min']:.1f}–{spread['max']:.1f}"] for name, spread in walls.items()]
    rows.append(["stage 6 alone (its progress line)", f"{stage['median']:.1f}", f"{stage['min']:.1f}–{stage['max']:.1f}"])
    markdown = "\n".join([
        f"`{payload['command'].strip()}` (MNIST pair), {rounds} round(s), {payload['when']}; load average "
        f"{load_before[0]:.1f} before, {payload['load_average']['after'][0]:.1f} after; "
        f"{machine()['cpus']} CPUs.", "",
        markdown_table(["run", "median s", "range s"], rows),
    ])
    publish("serving_cost", payload, markdown, args.results_dir, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
