"""Training throughput: legacy Estimator vs modern `fit` vs the compute floor, batch 128, MNIST.

    .venv/bin/python -m bench.throughput                  # 5 interleaved rounds, writes results/throughput.{json,md}
    .venv/bin/python -m bench.throughput --quick          # 2 short rounds, nothing written
    .venv-tf221/bin/python -m bench.throughput --name throughput_tf221   # modern variants only (no tf.estimator)

Variants (all train the same conv net, Adam, dropout 0.5, on the real MNIST
training set, shuffled; every `fit` runs `NanTensor()`, as every
`Estimator.train` runs its `NanTensorHook`):

* ``legacy_estimator``: `legacy.estimator.train`, i.e. `Estimator.train` over
  the placeholder-fed `Dataset` with its initializer hook; checkpoints,
  summaries and step logging are off during the measured window;
* ``modern_generator``: `modern.training.fit_steps` over
  `modern.pipeline.train_dataset` (a generator yielding blocks of whole
  batches, split again by `Dataset.rebatch`);
* ``modern_tensor_slices``: `fit_steps` over
  ``from_tensor_slices → shuffle(10 000) → repeat → batch → prefetch``;
* ``per_example_generator``: `fit_steps` over a generator yielding ONE example
  at a time, batched by `tf.data` (why the modern pipeline yields batches);
* ``floor_fit``: `fit_steps` on one batch repeated
  (``Dataset.from_tensors(batch).repeat()``): the same model, `fit` loop and
  train step, with no input work;
* ``floor_loop``: the same compiled train function (`model.make_train_function()`)
  called in a bare Python loop on that repeated batch: no input work and no
  `fit` loop either — the compute floor the targets refer to.

Timing: every variant stamps the end of each step — a `SessionRunHook.after_run`
for the Estimator, a Keras `on_train_batch_end` for `fit`, the return of the
train function for the loop — and the rate is the `steps` steps after the
first `warmup` ones, so graph building, session start, tracing and pipeline
start-up are excluded. Rounds are interleaved (each round runs every variant
once, in a rotated order) so slow phases of a shared machine hit all variants;
ratios are taken within a round and summarised over rounds.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np

from bench.common import RESULTS, Spread, load_average, machine, markdown_table, publish, timestamp, wait_for_quiet

BATCH_SIZE = 128
SHUFFLE_BUFFER = 10_000
SEED = 0
MODERN = "modern_generator"
LEGACY = "legacy_estimator"
FLOOR = "floor_loop"
TARGET_VS_LEGACY = 1.0
TARGET_VS_FLOOR = 0.95


class Runner(Protocol):
    clock: StepClock
    """The last run's step clock."""

    def run(self, warmup: int, steps: int) -> float:
        """Train `warmup + steps` steps; return the seconds the last `steps` took."""


@dataclass
class StepClock:
    """Timestamps of step ends; the window after the warm-up is the measurement.

    `ends[i]` is how many steps of the run had finished at `stamps[i]`: one
    more per tick normally, several when one call runs several steps
    (Keras' ``steps_per_execution``), where callbacks see only every Nth step.
    """

    stamps: list[float] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    cpu: list[tuple[float, float]] = field(default_factory=list)
    """(CPU seconds of the ticking thread, of the whole process) at each stamp: see `cpu_per_step`."""

    def tick(self, steps_done: int | None = None) -> None:
        previous = self.ends[-1] if self.ends else 0
        self.ends.append(previous + 1 if steps_done is None else steps_done)
        self.stamps.append(time.perf_counter())
        self.cpu.append((time.thread_time(), time.process_time()))

    def cpu_per_step(self, warmup: int, steps: int) -> dict[str, float]:
        """Milliseconds of CPU per measured step: the thread running the loop (`fit`'s or the session's
        Python, op dispatch, callbacks) and the whole process (plus the compute and input threads).

        CPU time, unlike the wall window, barely changes when other jobs share the cores, so it splits
        a gap between variants even on a busy machine.
        """
        self.window(warmup, steps)
        at = dict(zip(self.ends, self.cpu))
        (loop_0, process_0), (loop_1, process_1) = at[warmup], at[warmup + steps]
        return {"loop_thread_ms": (loop_1 - loop_0) * 1e3 / steps, "process_ms": (process_1 - process_0) * 1e3 / steps}

    def window(self, warmup: int, steps: int) -> float:
        if warmup < 1:
            raise ValueError(f"warmup must be >= 1 (the first step's end starts the clock), got {warmup}.")
        ends = self.ends or list(range(1, len(self.stamps) + 1))
        at = dict(zip(ends, self.stamps))
        if max(ends, default=0) < warmup + steps:
            raise RuntimeError(f"only {max(ends, default=0)} steps ran, expected {warmup + steps}.")
        if warmup not in at or warmup + steps not in at:
            raise RuntimeError(
                f"no tick at the end of step {warmup} or {warmup + steps} (ticks after steps {ends[:3]}…): "
                "with steps_per_execution=N, make the warm-up and measured steps multiples of N."
            )
        return at[warmup + steps] - at[warmup]


def _clock_callback(clock: StepClock) -> Any:
    """A Keras callback ticking `clock` at each batch end (``batch`` is the last step a call ran), without converting the logs to numpy."""
    from tensorflow import keras

    class ClockCallback(keras.callbacks.Callback):
        def __init__(self) -> None:
            super().__init__()
            self._supports_tf_logs = True

        def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
            clock.tick(batch + 1)

    return ClockCallback()


def _clock_hook(clock: StepClock) -> Any:
    """A SessionRunHook ticking `clock` after every `session.run`."""
    import tensorflow as tf

    class ClockHook(tf.compat.v1.train.SessionRunHook):
        def after_run(self, run_context: Any, run_values: Any) -> None:
            clock.tick()

    return ClockHook()


@dataclass
class LegacyEstimator:
    """`Estimator.train` over the placeholder pipeline; one Estimator (and model dir) for all rounds."""

    x: np.ndarray
    y: np.ndarray
    model_dir: str

    def __post_init__(self) -> None:
        from legacy.estimator import make_estimator

        self.estimator = make_estimator(
            self.model_dir, seed=SEED, save_checkpoints_steps=None, log_step_count_steps=None, save_summary_steps=0,
            keep_checkpoint_max=1,
        )

    def run(self, warmup: int, steps: int) -> float:
        from legacy.estimator import train

        clock = self.clock = StepClock()
        train(self.estimator, (self.x, self.y), steps=warmup + steps, batch_size=BATCH_SIZE,
              hooks=[_clock_hook(clock)], shuffle=True, seed=SEED)
        return clock.window(warmup, steps)


@dataclass
class ModernFit:
    """`fit_steps` over a fresh dataset each round (as each Estimator call re-runs its input_fn).

    Callbacks: the clock and `NanTensor()`, the twin of the `NanTensorHook`
    every `Estimator.train` adds (so both sides check every step's loss in
    Python). `compile_options` (``steps_per_execution``, ``jit_compile``)
    recompile the model with Keras' own speed settings.
    """

    make_dataset: Callable[[], Any]
    compile_options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from modern.model import build_model

        self.model = build_model(seed=SEED)
        if self.compile_options:
            self.model.compile(optimizer=self.model.optimizer, **self.compile_options)

    def run(self, warmup: int, steps: int) -> float:
        from modern.callbacks.nan_tensor import NanTensor
        from modern.training import fit_steps

        clock = self.clock = StepClock()
        fit_steps(self.model, self.make_dataset(), warmup + steps, [_clock_callback(clock), NanTensor()])
        return clock.window(warmup, steps)


@dataclass
class TrainFunctionLoop:
    """The compiled train step in a bare loop on one repeated batch: the compute floor."""

    make_dataset: Callable[[], Any]

    def __post_init__(self) -> None:
        from modern.model import build_model

        self.model = build_model(seed=SEED)
        self.model.make_train_function()

    def run(self, warmup: int, steps: int) -> float:
        clock = self.clock = StepClock()
        iterator = iter(self.make_dataset())
        train_function = self.model.train_function
        for _ in range(warmup + steps):
            train_function(iterator)
            clock.tick()
        return clock.window(warmup, steps)


def generator_dataset(x: np.ndarray, y: np.ndarray) -> Any:
    from modern.pipeline import train_dataset

    return train_dataset(x, y, BATCH_SIZE, shuffle_seed=SEED)


def tensor_slices_dataset(x: np.ndarray, y: np.ndarray) -> Any:
    import tensorflow as tf

    dataset = tf.data.Dataset.from_tensor_slices((x, y.astype(np.int64)))
    return dataset.shuffle(SHUFFLE_BUFFER, seed=SEED).repeat().batch(BATCH_SIZE).prefetch(tf.data.AUTOTUNE)


def per_example_dataset(x: np.ndarray, y: np.ndarray) -> Any:
    import tensorflow as tf

    def examples() -> Iterator[tuple[np.ndarray, np.int64]]:
        epoch = 0
        while True:
            for index in np.random.default_rng([SEED, epoch]).permutation(len(x)):
                yield x[index], np.int64(y[index])
            epoch += 1

    signature = (tf.TensorSpec((28, 28), tf.uint8), tf.TensorSpec((), tf.int64))
    dataset = tf.data.Dataset.from_generator(examples, output_signature=signature)
    return dataset.batch(BATCH_SIZE).prefetch(tf.data.AUTOTUNE)


def repeated_batch_dataset(x: np.ndarray, y: np.ndarray) -> Any:
    import tensorflow as tf

    batch = (tf.constant(x[:BATCH_SIZE]), tf.constant(y[:BATCH_SIZE].astype(np.int64)))
    return tf.data.Dataset.from_tensors(batch).repeat()


@dataclass(frozen=True)
class Variant:
    description: str
    needs_estimator: bool
    build: Callable[[np.ndarray, np.ndarray, str], Runner]


VARIANTS: dict[str, Variant] = {
    LEGACY: Variant(
        "Estimator.train, placeholder-fed Dataset + initializer hook", True,
        lambda x, y, work: LegacyEstimator(x, y, work),
    ),
    MODERN: Variant(
        "fit, modern.pipeline.train_dataset (generator of whole batches, 8 per read, rebatched)", False,
        lambda x, y, work: ModernFit(lambda: generator_dataset(x, y)),
    ),
    "modern_tensor_slices": Variant(
        "fit, from_tensor_slices → shuffle → repeat → batch → prefetch", False,
        lambda x, y, work: ModernFit(lambda: tensor_slices_dataset(x, y)),
    ),
    "per_example_generator": Variant(
        "fit, generator of single examples, batched by tf.data", False,
        lambda x, y, work: ModernFit(lambda: per_example_dataset(x, y)),
    ),
    "floor_fit": Variant(
        "fit on one batch repeated (from_tensors(batch).repeat())", False,
        lambda x, y, work: ModernFit(lambda: repeated_batch_dataset(x, y)),
    ),
    FLOOR: Variant(
        "compiled train function in a Python loop on one repeated batch", False,
        lambda x, y, work: TrainFunctionLoop(lambda: repeated_batch_dataset(x, y)),
    ),
}


def estimator_available() -> bool:
    try:
        import tensorflow as tf
        import tensorflow_estimator  # noqa: F401

        return hasattr(tf, "estimator") and hasattr(tf.estimator, "Estimator")
    except ImportError:
        return False


def training_data(examples: int | None) -> tuple[np.ndarray, np.ndarray]:
    """The real MNIST training images and labels (the first `examples` of them when given)."""
    from migrate.core.mnist import load_mnist

    data = load_mnist()
    return data.x_train[:examples], data.y_train[:examples]


def run_rounds(
    runners: dict[str, Runner], rounds: int, warmup: int, steps: int, log: Callable[[str], None]
) -> dict[str, list[float]]:
    """Steps/s of every variant per round; round r runs the variants rotated by r."""
    names = list(runners)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for round_index in range(rounds):
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            seconds = runners[name].run(warmup, steps)
            rates[name].append(steps / seconds)
            log(f"round {round_index + 1}/{rounds} {name}: {steps / seconds:.1f} steps/s")
    return rates


def paired_ratios(rates: dict[str, list[float]], numerator: str, denominator: str) -> Spread | None:
    if numerator not in rates or denominator not in rates:
        return None
    return Spread.of([a / b for a, b in zip(rates[numerator], rates[denominator])])


def summarize(rates: dict[str, list[float]], batch_size: int) -> dict[str, Any]:
    variants = {}
    for name, values in rates.items():
        spread = Spread.of(values)
        variants[name] = {
            "description": VARIANTS[name].description,
            "steps_per_s": spread.as_dict(),
            "examples_per_s_median": spread.median * batch_size,
            "rounds": values,
        }
    ratios: dict[str, Any] = {}
    for name in rates:
        for reference in (LEGACY, FLOOR):
            spread = paired_ratios(rates, name, reference) if name != reference else None
            if spread is not None:
                ratios[f"{name}/{reference}"] = spread.as_dict()
    targets = {}
    if f"{MODERN}/{LEGACY}" in ratios:
        targets[f"{MODERN} >= {TARGET_VS_LEGACY}x {LEGACY}"] = ratios[f"{MODERN}/{LEGACY}"]["median"] >= TARGET_VS_LEGACY
    if f"{MODERN}/{FLOOR}" in ratios:
        targets[f"{MODERN} >= {TARGET_VS_FLOOR}x {FLOOR}"] = ratios[f"{MODERN}/{FLOOR}"]["median"] >= TARGET_VS_FLOOR
    return {"variants": variants, "ratios": ratios, "targets_met": targets}


def render_markdown(payload: dict[str, Any]) -> str:
    summary = payload["summary"]
    config = payload["config"]
    rows = []
    for name, entry in summary["variants"].items():
        steps = entry["steps_per_s"]
        rows.append([
            f"`{name}`", entry["description"], f"{steps['median']:.1f}", f"{steps['min']:.1f}–{steps['max']:.1f}",
            f"{entry['examples_per_s_median']:,.0f}",
            _ratio_cell(summary["ratios"].get(f"{name}/{LEGACY}")), _ratio_cell(summary["ratios"].get(f"{name}/{FLOOR}")),
        ])
    table = markdown_table(
        ["variant", "what", "steps/s (median)", "min–max", "examples/s", f"÷ {LEGACY}", f"÷ {FLOOR}"], rows
    )
    versions = payload["machine"]["versions"]
    load = payload["load_average"]
    lines = [
        f"### Training throughput — TensorFlow {versions.get('tensorflow')}, Keras {versions.get('keras')}",
        "",
        f"Batch {config['batch_size']}, {config['rounds']} interleaved rounds × ({config['warmup']} warm-up + "
        f"{config['steps']} measured steps) per variant, {config['examples']:,} MNIST training examples, "
        f"{payload['machine']['cpus']} CPUs. Measured {payload['finished']}; load average (1 min) "
        f"{load['before'][0]:.2f} before, {load['after'][0]:.2f} after. Ratios are per round (median, min–max).",
        "",
        table,
        "",
    ]
    lines += [f"- target {name}: **{'met' if met else 'NOT met'}**" for name, met in summary["targets_met"].items()]
    return "\n".join(lines)


def _ratio_cell(ratio: dict[str, float] | None) -> str:
    if ratio is None:
        return "—"
    return f"{ratio['median']:.2f} ({ratio['min']:.2f}–{ratio['max']:.2f})"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.throughput", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=30, help="steps per run before the clock starts")
    parser.add_argument("--steps", type=int, default=300, help="measured steps per run")
    parser.add_argument("--examples", type=int, default=None, help="use the first N MNIST training examples")
    parser.add_argument("--variants", nargs="+", choices=sorted(VARIANTS), default=None,
                        help="default: all (all but the Estimator where tf.estimator is missing)")
    parser.add_argument("--quick", action="store_true", help="2 rounds of 10+50 steps; writes nothing")
    parser.add_argument("--name", default="throughput", help="result file stem in --results-dir")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    parser.add_argument("--max-load", type=float, default=1.5)
    parser.add_argument("--wait-for-quiet", type=float, default=0.0, metavar="SECONDS",
                        help="wait up to this long for the load average to drop below --max-load")
    return parser.parse_args(argv)


def selected_variants(requested: Sequence[str] | None) -> list[str]:
    has_estimator = estimator_available()
    if requested is None:
        return [name for name, variant in VARIANTS.items() if has_estimator or not variant.needs_estimator]
    missing = [name for name in requested if VARIANTS[name].needs_estimator and not has_estimator]
    if missing:
        raise SystemExit(f"variants {missing} need tf.estimator (TensorFlow <= 2.15); run them with .venv/bin/python.")
    return list(requested)


def log(message: str) -> None:
    print(f"[throughput] {message}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.quick:
        args.rounds, args.warmup, args.steps = 2, 10, 50
    names = selected_variants(args.variants)
    logging.getLogger("tensorflow").setLevel(logging.ERROR)
    x, y = training_data(args.examples)
    wait_for_quiet(args.max_load, args.wait_for_quiet)
    load_before = load_average()
    started = timestamp()
    with tempfile.TemporaryDirectory(prefix="bench-throughput-") as work:
        runners = {name: VARIANTS[name].build(x, y, os.path.join(work, name)) for name in names}
        rates = run_rounds(runners, args.rounds, args.warmup, args.steps, log)
    payload = {
        "benchmark": "throughput",
        "started": started,
        "finished": timestamp(),
        "load_average": {"before": load_before, "after": load_average()},
        "machine": machine(),
        "config": {"batch_size": BATCH_SIZE, "rounds": args.rounds, "warmup": args.warmup, "steps": args.steps,
                   "examples": len(x), "variants": names},
        "summary": summarize(rates, BATCH_SIZE),
    }
    publish(args.name, payload, render_markdown(payload), args.results_dir, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
