"""What every training benchmark shares: statistics, the machine's state, and result files.

The machine is shared and has 2 cores, so every result records the load
average before and after the measurement, the CPU count and the library
versions; figures taken under a load above ~1.5 should be read as such.
Results are written as `<name>.json` (everything measured) and `<name>.md`
(the table quoted in `bench/README.md`).
"""
from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
README = ROOT / "bench" / "README.md"
DISTRIBUTIONS = {
    "numpy": ("numpy",),
    "tensorflow": ("tensorflow", "tensorflow-cpu"),
    "keras": ("keras",),
    "tensorflow_estimator": ("tensorflow-estimator",),
}


@dataclass(frozen=True)
class Spread:
    """Median and spread of repeated measurements (quartiles by the 'inclusive' method)."""

    median: float
    minimum: float
    maximum: float
    q1: float
    q3: float
    count: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            raise ValueError("Spread.of: no values; run at least one round.")
        ordered = sorted(values)
        quartiles = statistics.quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else [ordered[0]] * 3
        return cls(statistics.median(ordered), ordered[0], ordered[-1], quartiles[0], quartiles[2], len(ordered))

    def as_dict(self) -> dict[str, float | int]:
        return {
            "median": self.median, "min": self.minimum, "max": self.maximum,
            "q1": self.q1, "q3": self.q3, "count": self.count,
        }


def load_average() -> tuple[float, float, float]:
    """The 1, 5 and 15-minute load averages (zeros where the OS does not say)."""
    try:
        return os.getloadavg()
    except OSError:
        return (0.0, 0.0, 0.0)


def wait_for_quiet(max_load: float, max_wait_s: float, poll_s: float = 30.0) -> float:
    """Sleep until the 1-minute load average is below `max_load` (or `max_wait_s` passed); return it.

    Final figures are only comparable when the other jobs on the machine are
    idle; a benchmark started by hand should not wait, so the default callers
    pass ``max_wait_s=0``.
    """
    deadline = time.monotonic() + max_wait_s
    while load_average()[0] >= max_load and time.monotonic() < deadline:
        print(f"[bench] load {load_average()[0]:.2f} >= {max_load}; waiting", file=sys.stderr, flush=True)
        time.sleep(poll_s)
    return load_average()[0]


def library_versions() -> dict[str, str]:
    """Installed versions of the libraries the measurements depend on (read without importing them)."""
    versions = {"python": platform.python_version()}
    for key, distributions in DISTRIBUTIONS.items():
        for distribution in distributions:
            try:
                versions[key] = importlib.metadata.version(distribution)
                break
            except importlib.metadata.PackageNotFoundError:
                continue
    return versions


def machine() -> dict[str, Any]:
    """The machine and the TensorFlow settings that change CPU speed."""
    return {
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "TF_ENABLE_ONEDNN_OPTS": os.environ.get("TF_ENABLE_ONEDNN_OPTS", "(unset: TensorFlow default)"),
        "versions": library_versions(),
    }


def write_results(name: str, payload: dict[str, Any], markdown: str, results_dir: Path = RESULTS) -> tuple[Path, Path]:
    """Write `<name>.json` and `<name>.md` into `results_dir`; return both paths."""
    results_dir.mkdir(parents=True, exist_ok=True)
    json_path = results_dir / f"{name}.json"
    md_path = results_dir / f"{name}.md"
    json_path.write_text(json.dumps(payload, indent=2, sort_keys=False) + "\n")
    md_path.write_text(markdown.rstrip() + "\n")
    return json_path, md_path


def publish(name: str, payload: dict[str, Any], markdown: str, results_dir: Path, quick: bool) -> None:
    """Print the table; unless `quick`, write the result files and say where (on stderr)."""
    print(markdown)
    if quick:
        return
    for path in write_results(name, payload, markdown, results_dir):
        print(f"[{name}] wrote {path}", file=sys.stderr, flush=True)


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A GitHub Markdown table; numbers are expected pre-formatted as strings."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def timestamp() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S %Z")
