#!/usr/bin/env python3
"""A new user's install: `pip install .[tf215]` into a bare venv, then `migrate parity --steps 20` (issue 28).

    .venv/bin/python -m bench.fresh_install            # writes results/fresh_install.{json,md}
    .venv/bin/python -m bench.fresh_install --quick    # the same, nothing written

Too slow for a test (the install alone takes minutes; pip's cache makes it
offline-capable). Steps, each checked:

1. `git archive HEAD` of this checkout (what a clone holds, nothing
   uncommitted) is installed with `pip install SRC[tf215]` into a new venv made
   by the interpreter running this script, with no `PYTHONPATH`;
2. in an empty project directory that holds its own `legacy/` and `modern/`
   packages (each raises on import), `migrate parity --steps 20` (the console
   script) and `python -m migrate parity --steps 20 --scenarios none` must exit
   0 and write all three outputs: strict JSON (no bare NaN), the Markdown
   report, a PNG;
3. `migrate report` on a small tree must not write any file into the venv's
   site-packages (bytecode caches aside).

Exits 1 when a check fails.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from io import BytesIO
from pathlib import Path

from bench.common import RESULTS, ROOT, load_average, machine, markdown_table, publish, timestamp

WORK = ROOT / "bench" / ".work" / "fresh-install"
IMPOSTOR = "raise SystemExit('the project\\'s own {name} package was imported instead of the toolkit\\'s')\n"


def run(argv: list[str], cwd: Path, timeout: float = 1800) -> tuple[subprocess.CompletedProcess, float]:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    started = time.monotonic()
    completed = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    return completed, time.monotonic() - started


def export_head(destination: Path) -> None:
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(destination, filter="data")


def outputs_problems(out: Path) -> list[str]:
    problems = []
    summary = out / "parity-summary.json"
    try:
        json.loads(summary.read_text(), parse_constant=lambda token: (_ for _ in ()).throw(ValueError(f"bare {token}")))
    except (OSError, ValueError) as error:
        problems.append(f"{summary}: {error}")
    if not (out / "parity-report.md").is_file():
        problems.append(f"{out / 'parity-report.md'} missing")
    png = out / "parity-losses.png"
    if not png.is_file() or png.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
        problems.append(f"{png} missing or not a PNG")
    return problems


def site_packages_writes(venv: Path, project: Path) -> list[str]:
    """Files `migrate report` creates in site-packages (bytecode aside)."""
    (project / "code").mkdir(exist_ok=True)
    (project / "code" / "train.py").write_text("import tensorflow as tf\nclass H(tf.train.SessionRunHook):\n    pass\n")
    before = {path for path in venv.rglob("*") if path.is_file()}
    run([str(venv / "bin" / "migrate"), "report", "code"], project)
    return sorted(str(path.relative_to(venv)) for path in venv.rglob("*")
                  if path.is_file() and path not in before and path.suffix != ".pyc")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="write nothing to bench/results/")
    args = parser.parse_args(argv)
    shutil.rmtree(WORK, ignore_errors=True)
    source, venv, project = WORK / "src", WORK / "venv", WORK / "project"
    for directory in (source, project):
        directory.mkdir(parents=True)
    for name in ("legacy", "modern"):
        (project / name).mkdir()
        (project / name / "__init__.py").write_text(IMPOSTOR.format(name=name))
    export_head(source)
    load_before = load_average()
    steps, failures = [], []

    def step(name: str, argv: list[str], cwd: Path, out: Path | None = None) -> None:
        completed, seconds = run(argv, cwd)
        problems = [] if completed.returncode == 0 else [f"exit {completed.returncode}: {completed.stderr[-2000:]}"]
        if out is not None and not problems:
            problems += outputs_problems(out)
        steps.append({"step": name, "seconds": round(seconds, 1), "exit": completed.returncode, "problems": problems})
        failures.extend(f"{name}: {problem}" for problem in problems)

    step("python -m venv", [sys.executable, "-m", "venv", str(venv)], WORK)
    step("pip install SRC[tf215]", [str(venv / "bin" / "pip"), "install", "--quiet", f"{source}[tf215]"], WORK)
    step("migrate parity --steps 20", [str(venv / "bin" / "migrate"), "parity", "--steps", "20", "--out", "out-script"],
         project, project / "out-script")
    step("python -m migrate parity --steps 20 --scenarios none",
         [str(venv / "bin" / "python"), "-m", "migrate", "parity", "--steps", "20", "--scenarios", "none", "--out",
          "out-module"], project, project / "out-module")
    written = site_packages_writes(venv, project)
    if written:
        failures.append(f"migrate report wrote into the venv: {', '.join(written)}")
    payload = {"measured": timestamp(), "machine": machine(), "load_before": load_before, "load_after": load_average(),
               "steps": steps, "site_packages_writes": written, "failures": failures, "ok": not failures}
    table = markdown_table(("step", "seconds", "exit", "problems"),
                           [(item["step"], item["seconds"], item["exit"], "; ".join(item["problems"]) or "none")
                            for item in steps])
    text = (f"# A fresh install: `pip install .[tf215]`, then `migrate parity --steps 20`\n\n"
            f"Command: `python -m bench.fresh_install`; measured {payload['measured']} "
            f"(load {load_before[0]:.1f} before). The project directory holds its own `legacy/` and `modern/` "
            "packages, which must not be imported.\n\n"
            f"{table}\n\nFiles `migrate report` wrote into the venv (bytecode aside): {', '.join(written) or 'none'}.\n\n"
            f"Result: {'all checks hold' if not failures else 'FAILED: ' + '; '.join(failures)}.\n")
    publish("fresh_install", payload, text, RESULTS, args.quick)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
