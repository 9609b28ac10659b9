"""Four-way training throughput in ONE interleaved run: legacy Estimator, Keras 2.15, Keras 3, tf-keras.

    .venv/bin/python -m bench.interleaved                         # 5 rounds, oneDNN on and off; writes results/interleaved.{json,md}
    .venv/bin/python -m bench.interleaved --wait-for-quiet 1800   # first wait (<= 30 min) for load average < 1.5
    .venv/bin/python -m bench.interleaved --quick                 # 2 short rounds, nothing written

Why one run: the earlier figures (`throughput.md`, `throughput_tf221.md`)
came from two separate runs, minutes apart on a shared machine, and with
different oneDNN settings (TF 2.15 with ``TF_ENABLE_ONEDNN_OPTS=0``, TF 2.21
with TensorFlow's default), so their ratio mixed three things. Here every
variant is a long-lived worker process in its own environment, each built
once (model, dataset, Estimator), and the orchestrator asks them to train
one at a time, round after round in a rotated order; the ratio to the legacy
Estimator is taken within each round and summarised over rounds.

Workers (same conv net, Adam, dropout 0.5, batch 128, the real MNIST
training set, shuffled; the modern ones through `modern.training.fit_steps`
over `modern.pipeline.train_dataset`, exactly what `bench.throughput` calls
``modern_generator``):

* ``legacy_estimator`` — TF 2.15 `Estimator.train` (`.venv`);
* ``keras_2.15`` — TF 2.15 / Keras 2.15 `fit` (`.venv`);
* ``keras_3`` — TF 2.21 / Keras 3 `fit` (`.venv-tf221`);
* ``tf_keras`` — TF 2.21 / tf-keras `fit` (`.venv-tf221`, ``TF_USE_LEGACY_KERAS=1``);

and, to split the gap between them:

* ``keras_3_spe10`` / ``keras_3_xla`` — ``keras_3`` recompiled with Keras'
  two speed settings, ``steps_per_execution=10`` (ten steps per call of the
  train function; callbacks see every tenth step) and ``jit_compile=True``
  (XLA);
* ``floor_tf2.15`` / ``floor_tf2.21`` — each TensorFlow's compute floor: the
  compiled train function (`bench.throughput.TrainFunctionLoop`) in a bare
  Python loop on one repeated batch, no input pipeline, `fit` loop or
  callbacks.

Every `fit` runs `NanTensor()` beside the clock, as every `Estimator.train`
runs its `NanTensorHook`: both sides check each step's loss in Python.

Each runs once per oneDNN setting in `--onednn`, set explicitly
(``TF_ENABLE_ONEDNN_OPTS=1`` is TensorFlow's default on x86 Linux in both
versions; ``0`` is what the parity checks use, because oneDNN kernels are not
bit-reproducible, and what importing `legacy` selects when nothing is set). Timing is `bench.throughput`'s:
the end of every step is stamped, and a run's rate is the measured steps after
the warm-up ones.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import (
    RESULTS,
    ROOT,
    Spread,
    load_average,
    machine,
    markdown_table,
    publish,
    timestamp,
    wait_for_quiet,
)

LEGACY = "legacy_estimator"
TARGET = ("keras_3", 0.95)
"""Issue 13: modern on TF 2.21 / Keras 3 >= 0.95x the legacy Estimator on TF 2.15, in steps/s."""


@dataclass(frozen=True)
class Worker:
    """One variant: the interpreter, extra environment, the runner it builds and the runner's options."""

    description: str
    venv: str
    runner: str
    env: tuple[tuple[str, str], ...] = ()
    options: tuple[str, ...] = ()
    """Extra ``--serve`` arguments, e.g. ``("--steps-per-execution", "10")``."""

    def python(self, venv_root: Path) -> Path:
        return venv_root / self.venv / "bin" / "python"


TF_KERAS = (("TF_USE_LEGACY_KERAS", "1"),)
WORKERS: dict[str, Worker] = {
    LEGACY: Worker("TF 2.15, Estimator.train, placeholder-fed Dataset + initializer hook", ".venv", "legacy"),
    "keras_2.15": Worker("TF 2.15 / Keras 2.15, fit over modern.pipeline.train_dataset", ".venv", "modern"),
    "keras_3": Worker("TF 2.21 / Keras 3, fit over modern.pipeline.train_dataset", ".venv-tf221", "modern"),
    "tf_keras": Worker(
        "TF 2.21 / tf-keras (TF_USE_LEGACY_KERAS=1), fit over modern.pipeline.train_dataset", ".venv-tf221", "modern",
        TF_KERAS,
    ),
    "keras_3_spe10": Worker(
        "as keras_3, compiled with steps_per_execution=10 (callbacks see every 10th step)", ".venv-tf221", "modern",
        options=("--steps-per-execution", "10"),
    ),
    "keras_3_xla": Worker(
        "as keras_3, compiled with jit_compile=True (XLA)", ".venv-tf221", "modern", options=("--jit-compile",),
    ),
    "floor_tf2.15": Worker(
        "TF 2.15 / Keras 2.15 compiled train function in a bare loop on one repeated batch (no input, fit loop, callbacks)",
        ".venv", "floor",
    ),
    "floor_tf2.21": Worker(
        "TF 2.21 / Keras 3 compiled train function in a bare loop on one repeated batch (no input, fit loop, callbacks)",
        ".venv-tf221", "floor",
    ),
}
FOUR_WAY = (LEGACY, "keras_2.15", "keras_3", "tf_keras")
"""The issue's four variants; the others split the gap (Keras' speed settings, each TF's compute floor)."""
ONEDNN = {"on": "1", "off": "0"}
"""TF_ENABLE_ONEDNN_OPTS per setting, always set explicitly: importing `legacy` turns oneDNN off unless it is set."""


def variant_name(worker: str, onednn: str) -> str:
    return f"{worker}, oneDNN {onednn}"


# ---------------------------------------------------------------- worker side


def _legacy_runner(x: Any, y: Any, work_dir: str, compile_options: dict[str, Any]) -> Any:
    from bench.throughput import LegacyEstimator

    return LegacyEstimator(x, y, work_dir)


def _modern_runner(x: Any, y: Any, work_dir: str, compile_options: dict[str, Any]) -> Any:
    from bench.throughput import ModernFit, generator_dataset

    return ModernFit(lambda: generator_dataset(x, y), compile_options)


def _floor_runner(x: Any, y: Any, work_dir: str, compile_options: dict[str, Any]) -> Any:
    from bench.throughput import TrainFunctionLoop, repeated_batch_dataset

    return TrainFunctionLoop(lambda: repeated_batch_dataset(x, y))


RUNNERS = {"legacy": _legacy_runner, "modern": _modern_runner, "floor": _floor_runner}
"""``--serve`` kind → builder(x, y, work_dir, compile_options) of a `bench.throughput` runner."""


def serve(runner_kind: str, examples: int | None, work_dir: str, compile_options: dict[str, Any]) -> int:
    """Build one runner, then answer ``run WARMUP STEPS`` lines with ``{"rate": steps/s}`` until ``quit``."""
    import logging

    from bench.throughput import training_data

    logging.getLogger("tensorflow").setLevel(logging.ERROR)
    x, y = training_data(examples)
    runner = RUNNERS[runner_kind](x, y, work_dir, compile_options)
    import importlib.metadata

    import tensorflow as tf

    keras_distribution = "tf_keras" if os.environ.get("TF_USE_LEGACY_KERAS") == "1" else "keras"
    reply({"ready": True, "tensorflow": tf.__version__, "keras": f"{keras_distribution} "
           f"{importlib.metadata.version(keras_distribution)}", "examples": len(x),
           "onednn": os.environ.get("TF_ENABLE_ONEDNN_OPTS", "(unset: TensorFlow default)"),
           "compile_options": compile_options})
    for line in sys.stdin:
        command = line.split()
        if command == ["quit"]:
            return 0
        warmup, steps = int(command[1]), int(command[2])
        reply({"rate": steps / runner.run(warmup, steps), **runner.clock.cpu_per_step(warmup, steps)})
    return 0


def reply(message: dict[str, Any]) -> None:
    print(json.dumps(message), flush=True)


# ---------------------------------------------------------- orchestrator side


class WorkerProcess:
    """A running worker; `run` blocks until it has trained and answered."""

    def __init__(
        self, name: str, worker: Worker, onednn: str, examples: int | None, work_dir: Path, venv_root: Path
    ) -> None:
        python = worker.python(venv_root)
        if not python.exists():
            raise SystemExit(f"{name}: {python} is missing; run `python3 dev.py test` once to create it.")
        env = {**os.environ, **dict(worker.env), "TF_CPP_MIN_LOG_LEVEL": "2"}
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
        env["TF_ENABLE_ONEDNN_OPTS"] = ONEDNN[onednn]
        command = [str(python), "-m", "bench.interleaved", "--serve", worker.runner, "--work-dir", str(work_dir),
                   *worker.options]
        if examples is not None:
            command += ["--examples", str(examples)]
        self.name = name
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.info: dict[str, Any] = {}

    def read(self) -> dict[str, Any]:
        """The worker's next JSON line (anything else a library printed to stdout is skipped)."""
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"worker {self.name} exited (code {self.process.wait()}); see its stderr above.")
            if line.startswith("{"):
                return json.loads(line)

    def run(self, warmup: int, steps: int) -> dict[str, float]:
        """``{"rate": steps/s, "loop_thread_ms": ..., "process_ms": ...}`` of one run (see `StepClock.cpu_per_step`)."""
        self.process.stdin.write(f"run {warmup} {steps}\n")
        self.process.stdin.flush()
        return {key: float(value) for key, value in self.read().items()}

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.write("quit\n")
            self.process.stdin.close()
            self.process.wait(timeout=120)


def run_rounds(
    workers: dict[str, WorkerProcess], rounds: int, warmup: int, steps: int
) -> tuple[dict[str, list[dict[str, float]]], list[float]]:
    """Each variant's run replies per round (round r rotated by r) and the 1-minute load at the end of each round."""
    names = list(workers)
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    loads = []
    for index in range(rounds):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            runs[name].append(workers[name].run(warmup, steps))
            log(f"round {index + 1}/{rounds} {name}: {runs[name][-1]['rate']:.1f} steps/s, CPU ms/step "
                f"{runs[name][-1]['loop_thread_ms']:.1f} loop thread, {runs[name][-1]['process_ms']:.1f} process")
        loads.append(load_average()[0])
    return runs, loads


def cpu_medians(runs: dict[str, list[dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Median CPU ms per step over rounds, per variant: the loop thread and the whole process."""
    return {
        name: {key: Spread.of([run[key] for run in values]).median for key in ("loop_thread_ms", "process_ms")}
        for name, values in runs.items()
    }


def summarize(rates: dict[str, list[float]], onednn_settings: Sequence[str]) -> dict[str, Any]:
    """Per variant: steps/s spread and the per-round ratio to the legacy Estimator under the same oneDNN setting."""
    variants = {}
    for name, values in rates.items():
        setting = next(s for s in onednn_settings if variant_name(name.split(",")[0], s) == name)
        legacy = variant_name(LEGACY, setting)
        ratio = None
        if legacy in rates and legacy != name:
            ratio = Spread.of([a / b for a, b in zip(values, rates[legacy])]).as_dict()
        variants[name] = {"steps_per_s": Spread.of(values).as_dict(), "rounds": values, "onednn": setting,
                          f"ratio_to_{LEGACY}": ratio}
    targets = {}
    for setting in onednn_settings:
        name = variant_name(TARGET[0], setting)
        ratio = variants.get(name, {}).get(f"ratio_to_{LEGACY}")
        if ratio is not None:
            targets[f"{name} >= {TARGET[1]}x {variant_name(LEGACY, setting)}"] = ratio["median"] >= TARGET[1]
    return {"variants": variants, "targets_met": targets}


def render_markdown(payload: dict[str, Any]) -> str:
    config, summary, load = payload["config"], payload["summary"], payload["load_average"]
    rows = []
    cpu = payload.get("cpu_ms_per_step", {})
    for name, entry in summary["variants"].items():
        steps = entry["steps_per_s"]
        ratio = entry[f"ratio_to_{LEGACY}"]
        worker = payload["workers"][name]
        step_cpu = cpu.get(name)
        rows.append([
            f"`{name}`", WORKERS[name.split(",")[0]].description,
            f"TF {worker['tensorflow']}, {worker['keras']}, {worker['onednn']}",
            f"{steps['median']:.1f}", f"{steps['min']:.1f}–{steps['max']:.1f}",
            "—" if ratio is None else f"{ratio['median']:.2f} ({ratio['min']:.2f}–{ratio['max']:.2f})",
            f"{1e3 / steps['median']:.1f}",
            "—" if step_cpu is None else f"{step_cpu['loop_thread_ms']:.1f} / {step_cpu['process_ms']:.1f}",
        ])
    table = markdown_table(
        ["variant", "what", "TF, Keras, TF_ENABLE_ONEDNN_OPTS", "steps/s (median)", "min–max", f"÷ {LEGACY} (same oneDNN)",
         "wall ms/step", "CPU ms/step: loop thread / process"],
        rows,
    )
    lines = [
        "### Interleaved training throughput — legacy Estimator, Keras 2.15, Keras 3, tf-keras"
        + ("" if set(payload["config"].get("workers", FOUR_WAY)) <= set(FOUR_WAY) else ", Keras 3 settings, compute floors"),
        "",
        f"Batch {config['batch_size']}, {config['rounds']} interleaved rounds × ({config['warmup']} warm-up + "
        f"{config['steps']} measured steps) per variant, {config['examples']:,} MNIST training examples, "
        f"{payload['machine']['cpus']} CPUs, one worker process per variant (only one trains at a time). "
        f"Measured {payload['started']} – {payload['finished']}; load average (1 min) {load['before'][0]:.2f} before, "
        f"{load['after'][0]:.2f} after, {min(load['rounds']):.2f}–{max(load['rounds']):.2f} at round ends. "
        "Ratios are per round (median, min–max). CPU ms/step (medians over rounds): the thread running the "
        "training loop (Python, op dispatch, hooks/callbacks) and the whole process (plus compute and input "
        "threads); CPU time is far less sensitive than wall time to other jobs on the machine.",
        "",
        table,
        "",
        f"Command: `{config['command']}`",
        "",
    ]
    lines += [target_verdict(name, met, payload) for name, met in summary["targets_met"].items()]
    return "\n".join(lines)


def target_verdict(name: str, met: bool, payload: dict[str, Any]) -> str:
    """The target's line: met / NOT met on steps/s, or "not judged" when other jobs shared the machine.

    The benchmark's own training keeps about one runnable thread per CPU, so
    a load average at the round ends up to CPUs + 1 means no other job to
    speak of. Above that, other jobs decide the wall-clock rates (the
    Estimator alone has varied 3x between rounds), so a steps/s verdict would
    be noise; the whole-process CPU ratio is given instead.
    """
    load, cpus = payload["load_average"], payload["machine"]["cpus"]
    peak = max(load["rounds"])
    if peak <= cpus + 1:
        return f"- target {name}: **{'met' if met else 'NOT met'}**"
    target, legacy = name.split(" >= ")[0], name.split("x ", 1)[1]
    cpu = payload.get("cpu_ms_per_step", {})
    by_cpu = ""
    if target in cpu and legacy in cpu:
        by_cpu = (f"; by whole-process CPU ms per step it is {cpu[legacy]['process_ms'] / cpu[target]['process_ms']:.2f}x "
                  f"({cpu[legacy]['process_ms']:.1f} / {cpu[target]['process_ms']:.1f})")
    return (f"- target {name}: **not judged** — the load average reached {peak:.1f} on {cpus} CPUs, so the "
            f"steps/s ratios above are other jobs' noise{by_cpu}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.interleaved", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=20, help="steps per run before the clock starts")
    parser.add_argument("--steps", type=int, default=150, help="measured steps per run")
    parser.add_argument("--examples", type=int, default=None, help="use the first N MNIST training examples")
    parser.add_argument("--workers", nargs="+", choices=list(WORKERS), default=list(WORKERS),
                        help=f"default: all; the issue's four-way comparison is {' '.join(FOUR_WAY)}")
    parser.add_argument("--onednn", nargs="+", choices=list(ONEDNN), default=["on", "off"],
                        help="TF_ENABLE_ONEDNN_OPTS settings; every worker runs once per setting")
    parser.add_argument("--quick", action="store_true", help="2 rounds of 10+20 steps; writes nothing")
    parser.add_argument("--name", default="interleaved", help="result file stem in --results-dir")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    parser.add_argument("--venv-root", type=Path, default=ROOT,
                        help="the checkout whose .venv and .venv-tf221 to use (default: this one)")
    parser.add_argument("--max-load", type=float, default=1.5)
    parser.add_argument("--wait-for-quiet", type=float, default=0.0, metavar="SECONDS",
                        help="wait up to this long for the load average to drop below --max-load")
    parser.add_argument("--serve", choices=list(RUNNERS), help=argparse.SUPPRESS)
    parser.add_argument("--steps-per-execution", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--jit-compile", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--work-dir", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.warmup, args.steps = 2, 10, 20
    problem = None if args.serve else step_count_problem(args)
    if problem:
        parser.error(problem)
    return args


def compile_options(args: argparse.Namespace) -> dict[str, Any]:
    """The Keras `compile` settings a worker's options ask for (none: the model as `build_model` compiles it)."""
    options: dict[str, Any] = {}
    if args.steps_per_execution is not None:
        options["steps_per_execution"] = args.steps_per_execution
    if args.jit_compile:
        options["jit_compile"] = True
    return options


def step_count_problem(args: argparse.Namespace) -> str | None:
    """Workers with steps_per_execution=N tick every N steps: warm-up and measured steps must be multiples of N."""
    for name in args.workers:
        options = WORKERS[name].options
        if "--steps-per-execution" in options:
            every = int(options[options.index("--steps-per-execution") + 1])
            if args.warmup % every or args.steps % every:
                return (
                    f"{name} runs {every} steps per call, so --warmup ({args.warmup}) and --steps ({args.steps}) "
                    f"must be multiples of {every}; pick other values or leave {name} out of --workers."
                )
    return None


def log(message: str) -> None:
    print(f"[interleaved] {message}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.serve:
        return serve(args.serve, args.examples, args.work_dir, compile_options(args))
    command = "python -m bench.interleaved " + " ".join(argv if argv is not None else sys.argv[1:])
    workers: dict[str, WorkerProcess] = {}
    with tempfile.TemporaryDirectory(prefix="bench-interleaved-") as work:
        try:
            for setting in args.onednn:
                for worker in args.workers:
                    name = variant_name(worker, setting)
                    workers[name] = WorkerProcess(name, WORKERS[worker], setting, args.examples, Path(work) / name, args.venv_root)
            for process in workers.values():
                process.info = process.read()
                log(f"{process.name} ready: {process.info}")
            wait_for_quiet(args.max_load, args.wait_for_quiet)
            load_before, started = load_average(), timestamp()
            runs, round_loads = run_rounds(workers, args.rounds, args.warmup, args.steps)
        finally:
            for process in workers.values():
                process.close()
    examples = next(iter(workers.values())).info["examples"]
    payload = {
        "benchmark": "interleaved",
        "started": started,
        "finished": timestamp(),
        "load_average": {"before": load_before, "after": load_average(), "rounds": round_loads},
        "machine": machine(),
        "workers": {name: process.info for name, process in workers.items()},
        "config": {"batch_size": 128, "rounds": args.rounds, "warmup": args.warmup, "steps": args.steps,
                   "examples": examples, "onednn": args.onednn, "workers": args.workers, "command": command.strip()},
        "summary": summarize({name: [run["rate"] for run in values] for name, values in runs.items()}, args.onednn),
        "cpu_ms_per_step": cpu_medians(runs),
    }
    publish(args.name, payload, render_markdown(payload), args.results_dir, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
