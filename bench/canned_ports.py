#!/usr/bin/env python3
"""`migrate port` on canned estimators: each source ported, then proven with every optimizer it offers.

    .venv/bin/python -m bench.canned_ports            # all sources, 200 steps each (minutes)
    .venv/bin/python -m bench.canned_ports --quick    # print the table, write nothing

Sources: examples/canned_dnn (DNNClassifier, the hand-written pair's TF1 half
is all the port reads) and examples/canned_estimators (LinearClassifier,
DNNRegressor, DNNLinearCombinedClassifier with crossed and embedding
columns; a v2 DNNClassifier with shared embeddings), all on the pinned penguins. Each is ported once (``migrate port
--no-check``), then ``migrate parity --pair OUT/pair.py --optimizer NAME`` runs
for each name in the source's ``LEARNING_RATES`` ("sgd", and the estimator's
own default optimizer by its family name — "ftrl", "adagrad" — or "canned"
for wide & deep's Ftrl + Adagrad). The verdict,
max |Δloss| and first failing stage come from ``parity-summary.json``.
Results: bench/results/canned_ports.{json,md}.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from bench.common import RESULTS, ROOT, machine, markdown_table, publish, timestamp

WORK = ROOT / "bench" / ".work" / "canned_ports"
SOURCES = {
    "canned_dnn (DNNClassifier)": ROOT / "examples" / "canned_dnn" / "pair.py",
    "LinearClassifier": ROOT / "examples" / "canned_estimators" / "linear_classifier.py",
    "DNNRegressor": ROOT / "examples" / "canned_estimators" / "dnn_regressor.py",
    "DNNLinearCombinedClassifier": ROOT / "examples" / "canned_estimators" / "wide_deep.py",
    "DNNClassifier v2 (shared embeddings)": ROOT / "examples" / "canned_estimators" / "dnn_classifier_v2.py",
}


def port(name: str, source: Path) -> tuple[Path, int, list[str]]:
    """``migrate port SOURCE --out OUT --no-check --force``: the exit code, and PORT.md's problems when refused."""
    out = WORK / source.stem
    command = [sys.executable, "-m", "migrate", "port", str(source), "--out", str(out), "--no-check", "--force"]
    completed = subprocess.run(command, capture_output=True, text=True)
    port_md = (out / "PORT.md").read_text() if (out / "PORT.md").is_file() else completed.stderr
    problems = [line[2:] for line in port_md.splitlines() if line.startswith("- ")] if completed.returncode else []
    if completed.returncode == 0 and "(canned estimator)" not in port_md:
        return out, 1, [f"{name}: ported by another porter than the canned one"]
    return out, completed.returncode, problems


def prove(out: Path, optimizer: str) -> dict:
    parity = out / f"parity-{optimizer}"
    command = [sys.executable, "-m", "migrate", "parity", "--pair", str(out / "pair.py"), "--optimizer", optimizer,
               "--out", str(parity)]
    completed = subprocess.run(command, capture_output=True, text=True)
    summary_file = parity / "parity-summary.json"
    if not summary_file.is_file():
        return {"exit": completed.returncode, "verdict": "no summary", "detail": completed.stderr.strip()[-500:]}
    summary = json.loads(summary_file.read_text())
    stages = {stage["stage"]: stage for stage in summary["stages"]}
    steps = stages.get("n-steps", {})
    return {"exit": completed.returncode, "verdict": "holds" if summary["ok"] else "broken",
            "first_failing_stage": summary["first_failing_stage"], "n_steps": steps.get("message", ""),
            "metrics": summary.get("metrics", {}).get("compared", [])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="print the table, write no result files")
    parser.add_argument("--only", nargs="*", help="names of SOURCES to run (default all)")
    args = parser.parse_args(argv)
    rows, results = [], []
    for name, source in SOURCES.items():
        if args.only and name not in args.only:
            continue
        out, code, refusals = port(name, source)
        if code != 0:
            results.append({"source": name, "port_exit": code, "refusals": refusals})
            rows.append((name, "—", f"refused: {'; '.join(refusals)}", "", ""))
            continue
        rates = _learning_rates(source)
        for optimizer in rates:
            outcome = prove(out, optimizer)
            results.append({"source": name, "optimizer": optimizer, **outcome})
            rows.append((name, optimizer, outcome["verdict"], outcome.get("n_steps", "").replace("|", "\\|"),
                         outcome.get("first_failing_stage") or "—"))
            print(f"[canned_ports] {name} --optimizer {optimizer}: {outcome['verdict']} {outcome.get('n_steps', '')}",
                  file=sys.stderr, flush=True)
    markdown = "\n".join([
        f"# Canned estimators ported and proven ({timestamp()})", "",
        markdown_table(("source", "--optimizer", "verdict", "N training steps", "first failing stage"), rows), ""])
    publish("canned_ports", {"machine": machine(), "results": results}, markdown, RESULTS, args.quick)
    return 0 if all(result.get("verdict") == "holds" for result in results) else 1


def _learning_rates(source: Path) -> list[str]:
    import ast

    for node in ast.parse(source.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "LEARNING_RATES" for t in node.targets):
            return [key.value for key in node.value.keys]
    return ["sgd"]


if __name__ == "__main__":
    raise SystemExit(main())
