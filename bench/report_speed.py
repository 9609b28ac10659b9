#!/usr/bin/env python3
"""Benchmark `migrate report` against `tf_upgrade_v2 --intree` and the parse-only floor.

    .venv/bin/python bench/report_speed.py            # full run, writes bench/results/report_speed.{json,md}
    .venv/bin/python bench/report_speed.py --quick    # tensorflow_estimator only, 1 repeat

Trees: the installed `tensorflow_estimator` package, `tensorflow/python` of
the pinned TF (real TF1-era code that defines and uses hooks) and
tensorflow/tensor2tensor at the commit `bench.upgrade_coverage` pins (from its
git mirror). Their `.py`
files are copied to `bench/.work/trees/` so every tool reads the same files
and `tf_upgrade_v2` can write its output tree next to them. Each tool runs as
a subprocess (interpreter start-up included, as a user would run it):

* ours: `python -m migrate report TREE --format json --output FILE --jobs N --exit-zero`;
* floor: `bench/parse_floor.py TREE --jobs N`: find the files as the report
  does, read and `ast.parse` each in the same forked pool with the same chunks,
  nothing else — a script of its own, so its start-up is not this benchmark's
  imports (see its docstring); with `--no-gc` as the stricter floor, which
  treats the interpreter as the report does (collector paused, no teardown at exit);
* tf_upgrade_v2: `tf_upgrade_v2 --intree TREE --outtree OUT --reportfile FILE`.

Ours and the floors run round-robin, repeated (median kept); the load average
is recorded around every run, because the machine is shared.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "bench" / ".work"
RESULTS = ROOT / "bench" / "results"
VENV_BIN = Path(sys.executable).parent
"""`tf_upgrade_v2` comes from the environment running the benchmark (the TF 2.15 venv)."""
PARSE_FLOOR = Path(__file__).resolve().parent / "parse_floor.py"
TARGET_SPEEDUP = 20.0
"""Issue 5: at least this many times faster than `tf_upgrade_v2`."""
TARGET_FLOOR_RATIO = 1.3
"""Issue 12: at most this many times the parse-only floor (issue 5 asked for 2)."""


def package_directory(name: str) -> Path:
    """Where an installed package lives, found without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{name} is not installed in {sys.executable}; run with .venv/bin/python")
    return Path(list(spec.submodule_search_locations)[0])


def copy_python_tree(source: Path, destination: Path) -> int:
    if destination.exists():
        shutil.rmtree(destination)
    count = 0
    for path in source.rglob("*.py"):
        if "__pycache__" in path.parts:
            continue
        target = destination / path.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        count += 1
    return count


def tool_environment() -> dict[str, str]:
    """The tools' environment: bytecode caching on, as after a normal install.

    `pip install` compiles TensorFlow's modules to .pyc; with
    PYTHONDONTWRITEBYTECODE set (as in some sandboxes) our editable checkout
    would be recompiled from source on every run, which measures the sandbox,
    not the tool. A warm-up run of each tool writes the caches first.
    """
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    environment["TF_CPP_MIN_LOG_LEVEL"] = "3"
    return environment


def timed(command: list[str]) -> dict:
    """Wall seconds and CPU seconds (user+sys of the process and its workers) of one subprocess."""
    load_before = os.getloadavg()[0]
    usage_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=tool_environment())
    seconds = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (usage.ru_utime - usage_before.ru_utime) + (usage.ru_stime - usage_before.ru_stime)
    if completed.returncode not in (0, 1):
        raise SystemExit(f"failed ({completed.returncode}): {' '.join(command)}\n{completed.stderr[-3000:]}")
    return {"seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3), "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2)}


def interleaved(commands: dict[str, list[str]], repeats: int) -> dict[str, dict]:
    """Run the commands round-robin `repeats` times, so a change of machine load hits all alike."""
    runs: dict[str, list[dict]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, command in commands.items():
            runs[name].append(timed(command))
    return {name: summarise(measured) for name, measured in runs.items()}


def summarise(runs: list[dict]) -> dict:
    return {
        "median_seconds": round(statistics.median(run["seconds"] for run in runs), 3),
        "median_cpu_seconds": round(statistics.median(run["cpu_seconds"] for run in runs), 3),
        "runs": runs,
    }


def measure_tree(name: str, tree: Path, files: int, jobs: int, repeats: int, tf_upgrade: bool) -> dict:
    python = sys.executable
    stem = name.replace("/", "_")
    out = WORK / "out"
    out.mkdir(parents=True, exist_ok=True)
    ours_command = [python, "-m", "migrate", "report", str(tree), "--format", "json", "--output", str(out / f"{stem}.json"), "--jobs", str(jobs), "--exit-zero"]
    floor_command = [python, str(PARSE_FLOOR), str(tree), "--jobs", str(jobs)]
    strict_floor_command = [*floor_command, "--no-gc"]
    result = {"tree": name, "files": files, "jobs": jobs}
    timed(floor_command)
    timed(ours_command)
    result.update(interleaved({"floor": floor_command, "floor_no_gc": strict_floor_command, "ours": ours_command}, repeats))
    report = json.loads((out / f"{stem}.json").read_text())
    result["ours"]["findings"] = report["summary"]["findings"]
    result["ours"]["hook_subclasses"] = report["summary"]["hook_subclasses"]
    result["ours"]["skipped"] = report["summary"]["files_skipped"]
    if tf_upgrade:
        outtree = WORK / "tf_upgrade_out" / stem
        shutil.rmtree(outtree, ignore_errors=True)
        command = [str(VENV_BIN / "tf_upgrade_v2"), "--intree", str(tree), "--outtree", str(outtree), "--reportfile", str(out / f"{stem}-tf_upgrade_v2.txt")]
        result["tf_upgrade_v2"] = summarise([timed(command)])
        result["speedup_vs_tf_upgrade_v2"] = round(result["tf_upgrade_v2"]["median_seconds"] / result["ours"]["median_seconds"], 1)
    result["ratio_to_parse_floor"] = round(result["ours"]["median_seconds"] / result["floor"]["median_seconds"], 2)
    result["cpu_ratio_to_parse_floor"] = round(result["ours"]["median_cpu_seconds"] / result["floor"]["median_cpu_seconds"], 2)
    result["ratio_to_no_gc_floor"] = round(result["ours"]["median_seconds"] / result["floor_no_gc"]["median_seconds"], 2)
    if tf_upgrade:
        result["cpu_speedup_vs_tf_upgrade_v2"] = round(result["tf_upgrade_v2"]["median_cpu_seconds"] / result["ours"]["median_cpu_seconds"], 1)
    for tool in ("ours", "floor", "floor_no_gc", "tf_upgrade_v2"):
        if tool in result:
            result[tool]["files_per_second"] = round(files / result[tool]["median_seconds"], 1)
    return result


def markdown(summary: dict) -> str:
    lines = [
        "# `migrate report` speed",
        "",
        f"Command: `{summary['command']}`  ",
        f"Machine: {summary['machine']['cpus']} CPUs, Python {summary['machine']['python']}, "
        f"TensorFlow {summary['machine']['tensorflow']}, tensorflow-estimator {summary['machine']['tensorflow_estimator']}  ",
        f"Measured: {summary['measured_at']}; load average before/after each run is in the JSON "
        f"(range during this run: {summary['load_range'][0]}–{summary['load_range'][1]}; the machine is shared).",
        "",
        "Wall-clock seconds (files/s); CPU seconds (user+sys, workers included) in brackets.",
        "",
        "| tree | files | jobs | tf_upgrade_v2 | migrate report | parse-only floor | floor, GC paused | speed-up vs tf_upgrade_v2 wall [CPU] | ratio to floor wall [CPU] | ratio to GC-paused floor |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for tree in summary["trees"]:
        upgrade = tree.get("tf_upgrade_v2")
        upgrade_cell = _cell(upgrade) if upgrade else "—"
        speedup = f"{tree['speedup_vs_tf_upgrade_v2']}× [{tree['cpu_speedup_vs_tf_upgrade_v2']}×]" if upgrade else "—"
        lines.append(
            f"| {tree['tree']} | {tree['files']} | {tree['jobs']} | {upgrade_cell} | {_cell(tree['ours'])} | "
            f"{_cell(tree['floor'])} | {_cell(tree['floor_no_gc'])} | {speedup} | "
            f"{tree['ratio_to_parse_floor']}× [{tree['cpu_ratio_to_parse_floor']}×] | {tree['ratio_to_no_gc_floor']}× |"
        )
    lines += [
        "",
        f"Targets: ≥ {TARGET_SPEEDUP:g}× faster than tf_upgrade_v2 (issue 5), ≤ {TARGET_FLOOR_RATIO:g}× the parse-only floor (issue 12). "
        f"Met: {'yes' if summary['targets_met'] else 'NO'}.",
        "",
        "The report runs with Python's cyclic garbage collector paused (an AST has no cycles) and ends its process "
        "without tearing the interpreter down; the plain floor does neither, so the floor that does both "
        "(`parse_floor.py --no-gc`, the GC-paused column) is shown as the stricter comparison.",
        "",
        "The floor is `bench/parse_floor.py`: the same files found the same way, read and parsed in the same forked pool "
        "with the same chunks, and only the imports that work needs (until 2026-11-24 it ran inside this script and "
        "paid for the benchmark's own imports, about 40 ms, which flattered the ratios).",
        "",
        "Times are wall-clock medians of whole subprocesses (interpreter start-up included); "
        "tf_upgrade_v2 runs once per tree (it also imports TensorFlow and writes a converted copy of the tree). "
        "Bytecode caching is on for every tool and each ran once before timing (see `tool_environment`).",
        "",
    ]
    return "\n".join(lines)


def _cell(measure: dict) -> str:
    return f"{measure['median_seconds']} s ({measure['files_per_second']}/s) [{measure['median_cpu_seconds']} s]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="tensorflow_estimator only, one repeat, results not written")
    parser.add_argument("--no-tf-upgrade", action="store_true", help="skip tf_upgrade_v2 (it takes minutes on tensorflow/python)")
    args = parser.parse_args(argv)
    trees = {"tensorflow_estimator": package_directory("tensorflow_estimator")}
    if not args.quick:
        trees["tensorflow/python"] = package_directory("tensorflow") / "python"
        trees["tensor2tensor"] = tensor2tensor_tree()
    repeats = 1 if args.quick else args.repeats
    results = []
    for name, source in trees.items():
        copy = WORK / "trees" / name.replace("/", "_")
        files = copy_python_tree(source, copy)
        print(f"[bench] {name}: {files} files", file=sys.stderr, flush=True)
        results.append(measure_tree(name, copy, files, args.jobs, repeats, not args.no_tf_upgrade))
        print(json.dumps(results[-1]), file=sys.stderr, flush=True)
    loads = [run[key] for tree in results for tool in ("ours", "floor", "floor_no_gc", "tf_upgrade_v2") if tool in tree for run in tree[tool]["runs"] for key in ("load_before", "load_after")]
    summary = {
        "command": "python bench/report_speed.py" + (" --quick" if args.quick else "") + (f" --jobs {args.jobs}" if args.jobs != 2 else "")
        + (" --no-tf-upgrade" if args.no_tf_upgrade else "") + (f" --repeats {args.repeats}" if args.repeats != 5 and not args.quick else ""),
        "measured_at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "tensorflow": importlib.metadata.version("tensorflow-cpu") if _installed("tensorflow-cpu") else importlib.metadata.version("tensorflow"),
            "tensorflow_estimator": importlib.metadata.version("tensorflow-estimator"),
        },
        "load_range": [min(loads), max(loads)],
        "trees": results,
        "targets": {"speedup_vs_tf_upgrade_v2": TARGET_SPEEDUP, "ratio_to_parse_floor": TARGET_FLOOR_RATIO},
    }
    summary["targets_met"] = all(
        tree["ratio_to_parse_floor"] <= TARGET_FLOOR_RATIO and tree.get("speedup_vs_tf_upgrade_v2", TARGET_SPEEDUP) >= TARGET_SPEEDUP
        for tree in results
    )
    text = markdown(summary)
    print(text)
    if not args.quick:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "report_speed.json").write_text(json.dumps(summary, indent=2) + "\n")
        (RESULTS / "report_speed.md").write_text(text)
    return 0 if summary["targets_met"] else 1


def tensor2tensor_tree() -> Path:
    """tensorflow/tensor2tensor at the commit `bench.upgrade_coverage` pins, from its git mirror (never committed)."""
    from bench.upgrade_coverage import DEFAULT_MIRRORS, TREES, extract

    destination = WORK / "sources" / "tensor2tensor"
    if not destination.exists():
        extract("tensorflow/tensor2tensor", TREES["tensorflow/tensor2tensor"], DEFAULT_MIRRORS, destination)
    return destination


def _installed(distribution: str) -> bool:
    try:
        importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


if __name__ == "__main__":
    raise SystemExit(main())
