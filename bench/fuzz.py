#!/usr/bin/env python3
"""A long fuzzing run of `migrate report`'s scanner and `migrate fix` (hypothesmith programs).

    .venv/bin/python -m bench.fuzz                      # 1,000 examples per property; writes results/fuzz.{json,md}
    .venv/bin/python -m bench.fuzz --examples 200 --quick

Runs the property tests of `tests/migrate/fix/test_fuzz.py` (the suite runs
them with a handful of examples) with many more, randomised examples: the
scanner and the fix never crash on a valid program, and the fix's output
parses and is a fixed point. Hypothesis' statistics (examples run, invalid
ones discarded, time) and any falsifying example are recorded. Exits 1 when
a property fails.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time

from bench.common import RESULTS, ROOT, load_average, machine, markdown_table, publish, timestamp

TEST_FILE = "tests/migrate/fix/test_fuzz.py"


def run(examples: int) -> dict:
    environment = {**os.environ, "MIGRATE_FUZZ_EXAMPLES": str(examples), "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    load_before = load_average()[0]
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", TEST_FILE, "-q", "-p", "no:cacheprovider", "--hypothesis-show-statistics"],
        capture_output=True, text=True, cwd=ROOT, env=environment,
    )
    seconds = time.perf_counter() - started
    output = completed.stdout + completed.stderr
    return {
        "examples_requested": examples,
        "passed": completed.returncode == 0,
        "seconds": round(seconds, 1),
        "load_average": [load_before, load_average()[0]],
        "properties": _statistics(output),
        "falsifying": re.findall(r"Falsifying example: .*?(?=\n\n|\Z)", output, re.S),
        "tail": output[-3000:] if completed.returncode else "",
    }


def _statistics(output: str) -> dict[str, dict[str, str]]:
    """Hypothesis' per-test statistics block: the lines under each `test_...:` header."""
    properties: dict[str, dict[str, str]] = {}
    current = None
    for line in output.splitlines():
        header = re.match(r"^.*::(test_\w+):\s*$", line.strip())
        if header:
            current = properties.setdefault(header.group(1), {})
            continue
        if current is not None and line.strip().startswith("- "):
            text = line.strip()[2:]
            if "passing" in text and "failing" in text:
                current["generate phase"] = text
            elif "Stopped because" in text:
                current["stopped because"] = text
        elif current is not None and line.strip().startswith("* "):
            current.setdefault("events", "")
            event = re.sub(r" object at 0x[0-9a-f]+", "", line.strip()[2:])
            current["events"] = "; ".join(filter(None, [current["events"], event]))
    return properties


def markdown(result: dict) -> str:
    rows = [
        (name, stats.get("generate phase", "?"), stats.get("events", ""), stats.get("stopped because", ""))
        for name, stats in result["properties"].items()
    ]
    text = (
        f"Fuzzing with hypothesmith ({timestamp()}), {result['examples_requested']} examples requested per property, "
        f"{result['seconds']:.0f} s (load {result['load_average'][0]:.2f}→{result['load_average'][1]:.2f}): "
        f"**{'all properties hold' if result['passed'] else 'FAILED'}**.\n\n"
        + markdown_table(("property", "generate phase", "events", "stop"), rows)
    )
    if result["falsifying"]:
        text += "\n\nFalsifying examples:\n\n" + "\n\n".join(f"```\n{example}\n```" for example in result["falsifying"])
    return text + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=1000, help="examples per property (default 1000)")
    parser.add_argument("--quick", action="store_true", help="write nothing to bench/results/")
    args = parser.parse_args(argv)
    result = run(args.examples)
    publish("fuzz", {"machine": machine(), **result}, markdown(result), RESULTS, args.quick)
    if not result["passed"]:
        print(result["tail"], file=sys.stderr)
    return 0 if result["passed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
