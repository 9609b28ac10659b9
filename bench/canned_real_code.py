#!/usr/bin/env python3
"""`migrate port` on canned estimators someone else configured: TensorFlow's official wide & deep census model.

    .venv/bin/python -m bench.canned_real_code            # 3 model types, ported and checked (minutes)
    .venv/bin/python -m bench.canned_real_code --quick    # print the table, write nothing

The code is the official TF1 census example as a user forked it
(``jetsmith/Estimator_Test`` at 77c14ab, ``official/wide_deep``): its
``build_model_columns`` (5 numeric, 4 vocabulary, a 1000-bucket hashed
column, a bucketized column, two 1000-bucket crosses, indicators and an
embedding) and its ``build_estimator`` for ``model_type`` wide
(`LinearClassifier`), deep (`DNNClassifier`, hidden units 100-75-50-25) and
wide_deep (`DNNLinearCombinedClassifier`), each with its canned default
optimizers, and its own CSV ``input_fn`` on the 30 real census rows the fork
ships (``census_test.csv``; empty fields are missing values). The files are
read from a local git mirror (``$MIGRATE_PORT_MIRROR/jetsmith+Estimator_Test/repo``,
default ``/work/.mirror``) into ``bench/.work`` and never committed; a small
loader source there runs them under ``tensorflow.compat.v1`` (what ``tf`` meant
in TF1) and is what ``migrate port`` is given. Results:
bench/results/canned_real_code.{json,md}.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from bench.common import RESULTS, ROOT, machine, markdown_table, publish, timestamp

MIRROR = Path(os.environ.get("MIGRATE_PORT_MIRROR", "/work/.mirror"))
REPO, COMMIT = "jetsmith/Estimator_Test", "77c14aba4809c9d3bdd38799ebd3421e6dfc1501"
FILES = ("official/wide_deep/census_dataset.py", "official/wide_deep/census_main.py",
         "official/wide_deep/census_test.csv")
WORK = ROOT / "bench" / ".work" / "canned_real_code"
MODEL_TYPES = ("wide", "deep", "wide_deep")
STEPS = 50

LOADER = '''"""Loader (bench.canned_real_code): the official census code, run as TF1 ran it, as a pair's TF1 half."""
import ast
from pathlib import Path

import tensorflow

HERE = Path(__file__).resolve().parent
PARAMS = {{"batch_size": 40, "model_type": {model_type!r}}}


def _load(name, wanted):
    tree = ast.parse((HERE / name).read_text())
    keep = [node for node in tree.body if isinstance(node, ast.Assign)
            or isinstance(node, ast.FunctionDef) and node.name in wanted]
    namespace = {{"tf": tensorflow.compat.v1, "zip": zip}}
    exec(compile(ast.Module(keep, []), str(HERE / name), "exec"), namespace)
    return namespace


_dataset = _load("census_dataset.py", {{"build_model_columns", "input_fn"}})
_main = _load("census_main.py", {{"build_estimator"}})
_MODEL_DIR = str(HERE / "model_dir_{model_type}")


def model_fn(features, labels, mode, params):
    estimator = _main["build_estimator"](_MODEL_DIR, params["model_type"], _dataset["build_model_columns"], 0, 0)
    return estimator.model_fn(features, labels, mode, None)


def train_input_fn(params):
    return _dataset["input_fn"](str(HERE / "census_test.csv"), None, False, params["batch_size"])


def eval_input_fn(params):
    return _dataset["input_fn"](str(HERE / "census_test.csv"), 1, False, params["batch_size"])
'''


def fetch_sources() -> None:
    git_dir = MIRROR / REPO.replace("/", "+") / "repo"
    if not git_dir.is_dir():
        raise SystemExit(f"no mirror of {REPO} at {git_dir}: git clone --mirror https://github.com/{REPO} {git_dir}")
    WORK.mkdir(parents=True, exist_ok=True)
    for path in FILES:
        text = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{COMMIT}:{path}"], capture_output=True,
                              text=True, check=True).stdout
        (WORK / Path(path).name).write_text(text)


def port_and_check(model_type: str) -> dict:
    source = WORK / f"census_{model_type}.py"
    source.write_text(LOADER.format(model_type=model_type))
    out = WORK / f"port_{model_type}"
    command = [sys.executable, "-m", "migrate", "port", str(source), "--out", str(out), "--force",
               "--steps", str(STEPS)]
    completed = subprocess.run(command, capture_output=True, text=True)
    port_md = (out / "PORT.md").read_text() if (out / "PORT.md").is_file() else ""
    last = [line for line in (completed.stdout + completed.stderr).splitlines() if "max |Δloss|" in line]
    return {"model_type": model_type, "exit": completed.returncode,
            "porter": "canned estimator" if "(canned estimator)" in port_md else "other",
            "n_steps": last[-1].strip() if last else "", "tail": completed.stderr.strip().splitlines()[-3:]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="print the table, write no result files")
    args = parser.parse_args(argv)
    fetch_sources()
    results = []
    for model_type in MODEL_TYPES:
        outcome = port_and_check(model_type)
        results.append(outcome)
        print(f"[canned_real_code] {model_type}: exit {outcome['exit']} {outcome['n_steps']}", file=sys.stderr,
              flush=True)
    verdicts = {0: "holds", 1: "broken", 2: "refused"}
    rows = [(r["model_type"], r["porter"], verdicts.get(r["exit"], f"error {r['exit']}"),
             r["n_steps"].replace("|", "\\|")) for r in results]
    markdown = "\n".join([
        f"# Official census wide & deep (TF1), ported by `migrate port` ({timestamp()})", "",
        f"{REPO}@{COMMIT[:7]} official/wide_deep; 30 real census rows; canned default optimizers; {STEPS} steps.", "",
        markdown_table(("model_type", "porter", "verdict", "N training steps"), rows), ""])
    publish("canned_real_code", {"machine": machine(), "repo": REPO, "commit": COMMIT, "results": results},
            markdown, RESULTS, args.quick)
    return 0 if all(r["exit"] == 0 for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
