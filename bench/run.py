"""Run the training benchmarks, write `bench/results/`, refresh the tables in `bench/README.md`.

    .venv/bin/python -m bench                          # throughput (TF 2.15, then TF 2.21 if .venv-tf221 exists) and memory
    .venv/bin/python -m bench --quick                  # a short pass of each, writes nothing
    .venv/bin/python -m bench --wait-for-quiet 1800    # first wait (up to 30 min) for load average < 1.5

Each benchmark runs in its own subprocess (the TF 2.21 throughput with
`.venv-tf221/bin/python`, modern variants only), so one crashing does not hide
the others and each starts from a fresh interpreter. The full run takes about
10 minutes on 2 cores.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.common import README, RESULTS, ROOT, wait_for_quiet

TF221_PYTHON = ROOT / ".venv-tf221" / "bin" / "python"


@dataclass(frozen=True)
class Job:
    name: str
    python: Path
    module: str
    arguments: tuple[str, ...]
    quick_arguments: tuple[str, ...]


def jobs(include_tf221: bool) -> list[Job]:
    """The benchmarks in run order; the full arguments give the committed figures."""
    planned = [
        Job("throughput", Path(sys.executable), "bench.throughput",
            ("--rounds", "6", "--warmup", "20", "--steps", "150"), ("--quick",)),
        Job("memory", Path(sys.executable), "bench.memory",
            ("--sizes", "1G", "3G", "--steps", "40"), ("--quick",)),
        Job("distributed", Path(sys.executable), "bench.distributed",
            ("--rounds", "3", "--steps", "80"), ("--quick",)),
    ]
    if include_tf221 and TF221_PYTHON.exists():
        planned.insert(1, Job("throughput_tf221", TF221_PYTHON, "bench.throughput",
                              ("--rounds", "3", "--warmup", "20", "--steps", "150"), ("--quick",)))
    return planned


def run_job(job: Job, quick: bool, results_dir: Path) -> int:
    arguments = job.quick_arguments if quick else job.arguments
    command = [str(job.python), "-m", job.module, *arguments, "--name", job.name, "--results-dir", str(results_dir)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    print(f"[bench] {' '.join(command)}", file=sys.stderr, flush=True)
    return subprocess.call(command, cwd=ROOT, env=env)


def refresh_readme(readme: Path, results_dir: Path, names: Sequence[str]) -> list[str]:
    """Replace each `<!-- bench:NAME -->` … `<!-- /bench:NAME -->` block with `results/NAME.md`.

    The README is shared with other benchmarks: it is re-read right before
    writing and only the marked blocks change. Returns the names refreshed.
    """
    text = readme.read_text()
    refreshed = []
    for name in names:
        table = results_dir / f"{name}.md"
        begin, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
        if not table.exists() or begin not in text or end not in text:
            continue
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = f"{head}{begin}\n{table.read_text().strip()}\n{end}{tail}"
        refreshed.append(name)
    readme.write_text(text)
    return refreshed


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short pass of each benchmark; writes nothing")
    parser.add_argument("--only", nargs="+", choices=["throughput", "throughput_tf221", "memory", "distributed"], default=None)
    parser.add_argument("--no-tf221", action="store_true", help="skip the TF 2.21 throughput run")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    parser.add_argument("--max-load", type=float, default=1.5)
    parser.add_argument("--wait-for-quiet", type=float, default=0.0, metavar="SECONDS",
                        help="before starting, wait up to this long for the 1-minute load average to drop below --max-load")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    selected = [job for job in jobs(not args.no_tf221) if args.only is None or job.name in args.only]
    print(f"[bench] load average {wait_for_quiet(args.max_load, args.wait_for_quiet):.2f} at start", file=sys.stderr)
    failures = [job.name for job in selected if run_job(job, args.quick, args.results_dir) != 0]
    if not args.quick and args.results_dir.resolve() == RESULTS.resolve():
        refreshed = refresh_readme(README, args.results_dir, [job.name for job in selected if job.name not in failures])
        print(f"[bench] refreshed {README.relative_to(ROOT)}: {', '.join(refreshed) or 'nothing'}", file=sys.stderr)
    if failures:
        print(f"[bench] failed: {', '.join(failures)}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
