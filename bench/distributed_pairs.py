"""Distributed parity on the example pairs and the built-in MNIST pair: `migrate parity --pair examples/<pair>/pair.py --workers 2`, as a user runs it.

    .venv/bin/python -m bench.distributed_pairs            # every case below; writes results/distributed_pairs.{json,md}
    .venv/bin/python -m bench.distributed_pairs --only tf1_idiom   # the cases of one pair; writes nothing

Each case is one real CLI run (a subprocess: both clusters, their role
processes, the verdict), one after another so clusters do not share the CPUs.
The table gives the exit code, the verdict, the first step whose losses
differ and the largest |Δloss| over the run, and the accuracy of each chief's
evaluation — the figures the user guide's distributed section quotes.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from bench.common import RESULTS, load_average, machine, markdown_table, publish, timestamp
from bench.distributed import machine_note
from migrate.parity.pair import BUILTIN_PAIRS

ROOT = Path(__file__).resolve().parents[1]


class Case(NamedTuple):
    """One run: the pair (a folder of examples/), the extra flags, and what it shows."""

    pair: str
    flags: tuple[str, ...]
    shows: str


CASES = (
    Case("mnist", ("--steps", "40"), "the built-in pair, the run without --pair: the MNIST net, SGD, bit-identical"),
    Case("tf1_idiom", ("--steps", "40"), "dense gradients, mean loss; its TOLERANCE_SCHEDULE \"rounding\" (LSTM "
                                         "weights transformed: another rounding, single-process too)"),
    Case("tf1_idiom", ("--steps", "40", "--save-checkpoints-steps", "8", "--kill", "worker:1@20"),
         "worker 1 killed at step 20, both clusters restarted from the checkpoint at step 16"),
    Case("ctr_tabular", ("--steps", "40"), "batch norm, clipping, momentum, a learning-rate schedule: TF1 workers "
                                           "each update the shared moving statistics, MWMS replicas average theirs"),
    Case("ctr_tabular", ("--steps", "200", "--replication", "async"),
         "asynchronous: ParameterServerStrategy, the statistical verdict"),
    Case("text_cnn", ("--steps", "40"), "an embedding: SyncReplicasOptimizer averages each sparse row over the "
                                        "workers that sent it, the all-reduce over all workers"),
    Case("canned_dnn", ("--steps", "40", "--optimizer", "sgd", "--schedule", "sparse-rows"),
         "the v1 canned head's SUM loss, divided by num_replicas_in_sync (modern.replicas); its embedding column's "
         "rows averaged per worker by TF1: --schedule sparse-rows"),
    Case("wide_deep", ("--steps", "40"), "two optimizers (refused: one SyncReplicasOptimizer per model_fn)"),
)


def summarise(out: Path) -> dict[str, Any]:
    """What the run's summary (the single-process one's schema) says: the verdict, where the losses part, the
    chiefs' accuracies, each side's attempts."""
    path = out / "parity-summary.json"
    if not path.exists():
        return {}
    summary = json.loads(path.read_text())
    losses = summary.get("losses") or {}
    metrics = summary.get("metrics") or {}
    cluster = next((stage for stage in summary["stages"] if stage["stage"] == "cluster"), {})
    return {
        "ok": summary["ok"], "first_failing_stage": summary.get("first_failing_stage"),
        "failures": summary.get("failures"), "steps_compared": losses.get("steps_compared", 0),
        "first_different_step": losses.get("first_difference_step"),
        "max_abs_loss_difference": losses.get("max_abs_loss_diff"),
        "accuracy": {side: (metrics.get(side) or {}).get("accuracy") for side in ("legacy", "modern")},
        "attempts": {side: [attempt["status"] for attempt in record["attempts"]]
                     for side, record in cluster.get("sides", {}).items()},
    }


def run_case(case: Case, modern_python: str | None) -> dict[str, Any]:
    """One `migrate parity --workers 2` subprocess; its exit code, last stderr line and summary."""
    with tempfile.TemporaryDirectory(prefix="bench-distributed-pairs-") as scratch:
        out = Path(scratch)
        pair = case.pair if case.pair in BUILTIN_PAIRS else str(ROOT / "examples" / case.pair / "pair.py")
        argv = [sys.executable, "-m", "migrate", "parity", "--pair", pair, "--workers", "2", *case.flags, "--out", str(out)]
        if modern_python:
            argv += ["--modern-python", modern_python]
        began = time.monotonic()
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "TF_CPP_MIN_LOG_LEVEL": "2"})
        seconds = time.monotonic() - began
        summary = summarise(out)
        errors = [line for line in done.stderr.splitlines() if "error" in line.lower()]
        return {"pair": case.pair, "flags": list(case.flags), "shows": case.shows, "exit": done.returncode,
                "seconds": round(seconds, 1), "error": errors[-1][-400:] if not summary and errors else None,
                **summary}


def verdict(entry: dict[str, Any]) -> str:
    """"parity holds", "parity broken at <stage>: <first failure>", or the error a run without a verdict ended with."""
    if entry.get("ok"):
        return "parity holds"
    if entry.get("ok") is False:
        failures = entry.get("failures") or ["?"]
        return f"parity broken at {entry.get('first_failing_stage')}: {failures[0]}"
    return f"no verdict: {(entry.get('error') or '?').replace('|', '/')[-220:]}"


def markdown(results: list[dict[str, Any]], payload: dict[str, Any]) -> str:
    rows = []
    for entry in results:
        accuracy = entry.get("accuracy") or {}
        rows.append((
            entry["pair"], " ".join(entry["flags"]), entry["exit"],
            verdict(entry),
            entry.get("first_different_step") or "—",
            "—" if entry.get("max_abs_loss_difference") is None else f"{entry['max_abs_loss_difference']:.3g}",
            " / ".join("—" if accuracy.get(side) is None else f"{accuracy[side]:.4f}" for side in ("legacy", "modern")),
            entry["seconds"], entry["shows"],
        ))
    table = markdown_table(("pair", "flags", "exit", "verdict", "first step differing", "max abs Δloss",
                            "accuracy legacy / modern", "seconds", "what it shows"), rows)
    return (f"{table}\n\n`migrate parity --pair examples/<pair>/pair.py --workers 2 <flags>` (`--pair mnist`: the "
            f"built-in pair), one run each, {machine_note(payload)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.distributed_pairs", description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run the cases of this pair only (writes nothing)")
    parser.add_argument("--modern-python", help="interpreter for the modern side (default: this one)")
    parser.add_argument("--name", default="distributed_pairs")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    before = load_average()
    results = []
    for case in CASES:
        if args.only in (None, case.pair):
            results.append(run_case(case, args.modern_python))
            print(f"[distributed_pairs] {case.pair} {' '.join(case.flags)}: exit {results[-1]['exit']}",
                  file=sys.stderr, flush=True)
    payload = {"benchmark": "distributed_pairs", "when": timestamp(), "machine": machine(),
               "load_average": {"before": before, "after": load_average()}, "results": results}
    publish(args.name, payload, markdown(results, payload), args.results_dir, quick=args.only is not None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
