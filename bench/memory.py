"""Memory and the 2 GB wall: peak RSS of each input pipeline on MNIST-shaped data bigger than 2 GB.

    .venv/bin/python -m bench.memory                      # 1 GB and 3 GB datasets, writes results/memory.{json,md}
    .venv/bin/python -m bench.memory --quick              # 8 MB and 24 MB, 3 steps, nothing written

For every size the benchmark writes a synthetic MNIST-shaped dataset
(``images.npy`` uint8 [N, 28, 28] and ``labels.npy`` uint8 [N], random bytes,
N = size / 785) into a temporary directory, removed afterwards — also on an
error, Ctrl-C or SIGTERM. Every variant then trains a few dozen steps (batch
128) in its own subprocess, opening the arrays with
``np.load(mmap_mode="r")``, and its peak resident set size is the kernel's
``ru_maxrss`` of that child (`os.wait4`), which counts both the anonymous
memory and the file pages it touched:

* ``legacy_constant``: `Estimator.train` with `legacy.inputs.constant_input_fn`,
  the naive recipe that embeds the arrays in the graph as constants. Beyond
  2 GB it must fail with TensorFlow's 2 GB limit on protocol buffers
  ("Cannot create a tensor proto whose content is larger than 2GB." for one
  array, "GraphDef cannot be larger than 2GB." for a graph adding up past
  it); the message is reported verbatim;
* ``legacy_placeholder``: `legacy.estimator.train` (placeholders fed once by
  the initializer hook): no size limit, but the fed arrays are copied into
  the session, so the peak grows with the data;
* ``modern_generator``: `modern.training.fit_steps` over
  `modern.pipeline.train_dataset` streaming shuffled batches from the memmap:
  only the batches in flight are in memory, so the peak should not depend
  on the dataset size.

`legacy_constant` is only run on sizes whose images exceed the 2 GB limit:
below it, it works, but the Estimator also writes the whole GraphDef as text
(`graph.pbtxt`) for TensorBoard, which takes minutes for a 1 GB graph.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bench.common import RESULTS, ROOT, load_average, machine, markdown_table, publish, timestamp, wait_for_quiet

BATCH_SIZE = 128
SEED = 0
EXAMPLE_BYTES = 28 * 28 + 1
PROTO_LIMIT = 1 << 31
WALL_PATTERN = re.compile(r"larger than 2\s?GB", re.IGNORECASE)
TARGET_PEAK_BYTES = 1.5e9
TARGET_FLATNESS = 0.10
CHUNK_EXAMPLES = 65_536
VARIANTS = ("legacy_constant", "legacy_placeholder", "modern_generator")


@dataclass(frozen=True)
class DatasetFiles:
    images: Path
    labels: Path
    examples: int

    @property
    def image_bytes(self) -> int:
        return self.examples * 28 * 28

    @property
    def total_bytes(self) -> int:
        return self.examples * EXAMPLE_BYTES


def parse_size(text: str) -> int:
    """'3G', '1.5G', '500M', '8M' or a plain byte count → bytes (decimal units: 1G = 10**9)."""
    match = re.fullmatch(r"\s*([0-9.]+)\s*([KMG]?)B?\s*", text.upper())
    if not match:
        raise argparse.ArgumentTypeError(f"size {text!r}: expected e.g. 3G, 500M or 8000000.")
    return int(float(match.group(1)) * {"": 1, "K": 10**3, "M": 10**6, "G": 10**9}[match.group(2)])


def size_label(size: int) -> str:
    return f"{size / 1e9:g} GB" if size >= 10**9 else f"{size / 1e6:g} MB"


def _write_npy(path: Path, shape: tuple[int, ...], chunks: Iterator[np.ndarray]) -> None:
    """Write an uint8 .npy chunk by chunk, so the writer never holds the array."""
    with open(path, "wb") as handle:
        np.lib.format.write_array_header_1_0(handle, {"descr": "|u1", "fortran_order": False, "shape": shape})
        for chunk in chunks:
            handle.write(chunk.tobytes())


def make_dataset(directory: Path, size: int, seed: int = SEED) -> DatasetFiles:
    """A synthetic MNIST-shaped dataset of about `size` bytes: random pixels, random labels 0–9."""
    examples = max(BATCH_SIZE, size // EXAMPLE_BYTES)
    directory.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    starts = range(0, examples, CHUNK_EXAMPLES)

    def image_chunks() -> Iterator[np.ndarray]:
        for start in starts:
            count = min(CHUNK_EXAMPLES, examples - start)
            yield np.frombuffer(rng.bytes(count * 28 * 28), np.uint8)

    def label_chunks() -> Iterator[np.ndarray]:
        for start in starts:
            yield rng.integers(0, 10, min(CHUNK_EXAMPLES, examples - start), dtype=np.uint8)

    files = DatasetFiles(directory / "images.npy", directory / "labels.npy", examples)
    _write_npy(files.images, (examples, 28, 28), image_chunks())
    _write_npy(files.labels, (examples,), label_chunks())
    return files


def hits_the_wall(message: str) -> bool:
    """Whether an error message is TensorFlow's 2 GB protocol-buffer limit (tensor proto or GraphDef)."""
    return bool(WALL_PATTERN.search(message))


def _quiet_estimator(model_dir: Path) -> Any:
    from legacy.estimator import make_estimator

    return make_estimator(model_dir, seed=SEED, save_checkpoints_steps=None, log_step_count_steps=None,
                          save_summary_steps=0, keep_checkpoint_max=1)


def train_legacy_constant(images: np.ndarray, labels: np.ndarray, steps: int, work: Path) -> dict[str, Any]:
    """`Estimator.train` over the naive constant-embedding input function."""
    from legacy.inputs import constant_input_fn

    input_fn = constant_input_fn(images, labels, batch_size=BATCH_SIZE, shuffle=True, seed=SEED)
    _quiet_estimator(work / "model").train(input_fn, steps=steps)
    return {"embedded_bytes": int(images.nbytes + labels.nbytes)}


def train_legacy_placeholder(images: np.ndarray, labels: np.ndarray, steps: int, work: Path) -> dict[str, Any]:
    """`legacy.estimator.train`: placeholders fed by the iterator initializer hook."""
    from legacy.estimator import train
    from legacy.inputs import graph_def_bytes, placeholder_input_fn

    input_fn, _ = placeholder_input_fn(images, labels, batch_size=BATCH_SIZE, shuffle=True, seed=SEED)
    input_graph_def_bytes = graph_def_bytes(input_fn)
    train(_quiet_estimator(work / "model"), (images, labels), steps=steps, batch_size=BATCH_SIZE, shuffle=True, seed=SEED)
    return {"input_graph_def_bytes": input_graph_def_bytes}


def train_modern_generator(images: np.ndarray, labels: np.ndarray, steps: int, work: Path) -> dict[str, Any]:
    """`fit_steps` over `train_dataset`, shuffled batches gathered from the memmap."""
    from modern.model import build_model
    from modern.pipeline import train_dataset
    from modern.training import fit_steps

    model = build_model(seed=SEED)
    fit_steps(model, train_dataset(images, labels, BATCH_SIZE, shuffle_seed=SEED), steps)
    return {"global_step": int(np.asarray(model.optimizer.iterations))}


TRAINERS: dict[str, Callable[[np.ndarray, np.ndarray, int, Path], dict[str, Any]]] = {
    "legacy_constant": train_legacy_constant,
    "legacy_placeholder": train_legacy_placeholder,
    "modern_generator": train_modern_generator,
}


def run_variant(variant: str, images: np.ndarray, labels: np.ndarray, steps: int, work: Path) -> dict[str, Any]:
    """Train one variant in this process; an exception becomes the outcome, classified, message kept verbatim."""
    started = time.perf_counter()
    try:
        details = TRAINERS[variant](images, labels, steps, work)
        outcome: dict[str, Any] = {"outcome": "trained", **details}
    except Exception as error:
        message = str(error).strip()
        outcome = {
            "outcome": "2GB limit" if hits_the_wall(message) else "failed",
            "error_type": type(error).__name__,
            "error_message": message,
        }
    outcome["seconds"] = time.perf_counter() - started
    return outcome


def own_peak_rss() -> int | None:
    """This process's VmHWM from /proc (bytes), or None off Linux."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def child_main(args: argparse.Namespace) -> int:
    """Subprocess entry: open the arrays as memmaps, train, write the outcome as JSON."""
    import logging

    logging.getLogger("tensorflow").setLevel(logging.ERROR)
    images = np.load(args.images, mmap_mode="r")
    labels = np.load(args.labels, mmap_mode="r")
    work = Path(args.output).parent / f"{args.child}-work"
    result = run_variant(args.child, images, labels, args.steps, work)
    result["child_vmhwm_bytes"] = own_peak_rss()
    Path(args.output).write_text(json.dumps(result))
    return 0


def _child_environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


def measure_child(variant: str, files: DatasetFiles, steps: int, work: Path, timeout_s: float) -> dict[str, Any]:
    """Run one variant in a subprocess; its peak RSS is the kernel's ru_maxrss for that very child."""
    output = work / f"{variant}.json"
    log_path = work / f"{variant}.log"
    command = [sys.executable, "-m", "bench.memory", "--child", variant, "--images", str(files.images),
               "--labels", str(files.labels), "--steps", str(steps), "--output", str(output)]
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen(command, cwd=ROOT, env=_child_environment(), stdout=log_file, stderr=subprocess.STDOUT)
        watchdog = threading.Timer(timeout_s, process.kill)
        watchdog.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        except BaseException:
            process.kill()
            process.wait()
            raise
        finally:
            watchdog.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
    result = json.loads(output.read_text()) if output.exists() else {
        "outcome": "crashed",
        "error_message": f"exit code {process.returncode}; last output: {_tail(log_path)}",
    }
    result["exit_code"] = process.returncode
    result["peak_rss_bytes"] = usage.ru_maxrss * 1024
    return result


def _tail(path: Path, lines: int = 5) -> str:
    return " | ".join(path.read_text(errors="replace").strip().splitlines()[-lines:])


def variants_for(size_files: DatasetFiles, requested: Sequence[str]) -> list[str]:
    """The constant-embedding recipe only where it must hit the wall (see the module docstring)."""
    return [name for name in requested if name != "legacy_constant" or size_files.image_bytes >= PROTO_LIMIT]


@dataclass(frozen=True)
class Run:
    size: int
    dataset_bytes: int
    examples: int
    variant: str
    result: dict[str, Any]


def run_all(sizes: Sequence[int], requested: Sequence[str], steps: int, work: Path, timeout_s: float,
            log: Callable[[str], None]) -> list[Run]:
    """For each size: write the dataset, measure every variant, delete the dataset before the next size."""
    runs = []
    for size in sizes:
        directory = work / f"data-{size}"
        files = make_dataset(directory, size)
        log(f"{size_label(size)}: wrote {files.examples:,} examples ({files.total_bytes / 1e9:.2f} GB)")
        for variant in variants_for(files, requested):
            result = measure_child(variant, files, steps, directory, timeout_s)
            log(f"{size_label(size)} {variant}: {result['outcome']}, peak RSS {result['peak_rss_bytes'] / 1e9:.2f} GB")
            runs.append(Run(size, files.total_bytes, files.examples, variant, result))
        shutil.rmtree(directory)
    return runs


def targets(runs: Sequence[Run]) -> dict[str, bool]:
    """The issue's targets, judged on the smallest and the largest size measured."""
    met: dict[str, bool] = {}
    modern = sorted((run for run in runs if run.variant == "modern_generator"), key=lambda run: run.size)
    if modern:
        largest = modern[-1]
        met[f"modern_generator peak RSS <= {TARGET_PEAK_BYTES / 1e9:g} GB at {size_label(largest.size)}"] = (
            largest.result["outcome"] == "trained" and largest.result["peak_rss_bytes"] <= TARGET_PEAK_BYTES
        )
    if len(modern) > 1:
        low, high = modern[0].result["peak_rss_bytes"], modern[-1].result["peak_rss_bytes"]
        met[f"modern_generator peak RSS within {TARGET_FLATNESS:.0%} from {size_label(modern[0].size)} to "
            f"{size_label(modern[-1].size)}"] = abs(high - low) <= TARGET_FLATNESS * low
    walls = [run for run in runs if run.variant == "legacy_constant"]
    if walls:
        met["legacy_constant fails with the 2 GB limit beyond 2 GB"] = all(run.result["outcome"] == "2GB limit" for run in walls)
    return met


def render_markdown(payload: dict[str, Any]) -> str:
    rows = []
    for run in payload["runs"]:
        result = run["result"]
        note = result.get("error_message", "")
        if result.get("input_graph_def_bytes") is not None:
            note = f"input GraphDef {result['input_graph_def_bytes']:,} bytes"
        rows.append([
            size_label(run["size"]), f"{run['examples']:,}", f"`{run['variant']}`", result["outcome"],
            f"{result['peak_rss_bytes'] / 1e9:.2f}", f"{result['seconds']:.0f}" if "seconds" in result else "—",
            f"`{note}`" if "error_message" in result else note,
        ])
    load = payload["load_average"]
    versions = payload["machine"]["versions"]
    lines = [
        f"### Memory and the 2 GB wall — TensorFlow {versions.get('tensorflow')}, Keras {versions.get('keras')}",
        "",
        f"Synthetic MNIST-shaped uint8 data on disk, opened with `np.load(mmap_mode=\"r\")`; "
        f"{payload['config']['steps']} training steps of batch {BATCH_SIZE} per variant, each in its own "
        f"subprocess; peak RSS is that child's `ru_maxrss`. Measured {payload['finished']}; load average "
        f"(1 min) {load['before'][0]:.2f} before, {load['after'][0]:.2f} after.",
        "",
        markdown_table(["dataset", "examples", "variant", "outcome", "peak RSS (GB)", "seconds", "note"], rows),
        "",
    ]
    lines += growth_lines(payload["runs"])
    lines += [f"- target {name}: **{'met' if met else 'NOT met'}**" for name, met in payload["targets_met"].items()]
    return "\n".join(lines)


def growth_lines(runs: Sequence[dict[str, Any]]) -> list[str]:
    """How each variant's peak RSS moved from the smallest to the largest dataset it trained on."""
    lines = []
    for variant in VARIANTS:
        trained = sorted((run for run in runs if run["variant"] == variant and run["result"]["outcome"] == "trained"),
                         key=lambda run: run["size"])
        if len(trained) < 2:
            continue
        low, high = trained[0], trained[-1]
        rss_change = high["result"]["peak_rss_bytes"] - low["result"]["peak_rss_bytes"]
        data_change = high["dataset_bytes"] - low["dataset_bytes"]
        lines.append(
            f"- `{variant}`: peak RSS {rss_change / 1e9:+.2f} GB from {size_label(low['size'])} to "
            f"{size_label(high['size'])} ({rss_change / data_change:+.2f} bytes per byte of data, "
            f"{rss_change / low['result']['peak_rss_bytes']:+.0%})"
        )
    return lines


def _raise_on_sigterm() -> None:
    """SIGTERM unwinds like Ctrl-C, so the `finally` that removes the data runs."""
    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, handler)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", type=parse_size, default=[parse_size("1G"), parse_size("3G")],
                        help="dataset sizes, e.g. 1G 3G (decimal units)")
    parser.add_argument("--steps", type=int, default=40, help="training steps per variant")
    parser.add_argument("--quick", action="store_true", help="8 MB and 24 MB datasets, 3 steps; writes nothing")
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--work-dir", type=Path, default=None, help="where the temporary dataset goes (default: $TMPDIR)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds before a child is killed")
    parser.add_argument("--name", default="memory", help="result file stem in --results-dir")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    parser.add_argument("--max-load", type=float, default=1.5)
    parser.add_argument("--wait-for-quiet", type=float, default=0.0, metavar="SECONDS")
    parser.add_argument("--child", choices=VARIANTS, help=argparse.SUPPRESS)
    parser.add_argument("--images", help=argparse.SUPPRESS)
    parser.add_argument("--labels", help=argparse.SUPPRESS)
    parser.add_argument("--output", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def log(message: str) -> None:
    print(f"[memory] {message}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        return child_main(args)
    _raise_on_sigterm()
    if args.quick:
        args.sizes, args.steps = [parse_size("8M"), parse_size("24M")], 3
    wait_for_quiet(args.max_load, args.wait_for_quiet)
    load_before = load_average()
    started = timestamp()
    work = Path(tempfile.mkdtemp(prefix="bench-memory-", dir=args.work_dir))
    try:
        runs = run_all(args.sizes, args.variants, args.steps, work, args.timeout, log)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    payload = {
        "benchmark": "memory",
        "started": started,
        "finished": timestamp(),
        "load_average": {"before": load_before, "after": load_average()},
        "machine": machine(),
        "config": {"sizes": list(args.sizes), "steps": args.steps, "batch_size": BATCH_SIZE, "variants": list(args.variants)},
        "runs": [asdict(run) for run in runs],
        "targets_met": targets(runs),
    }
    publish(args.name, payload, render_markdown(payload), args.results_dir, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
