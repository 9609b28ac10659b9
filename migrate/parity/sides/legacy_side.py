"""The legacy side: Estimator + SessionRunHooks on the placeholder pipeline (TF 2.15 only).

It is the reference: its step-0 checkpoint provides the initial weights the
modern side copies.
"""
from __future__ import annotations

import importlib.metadata
import platform
from pathlib import Path
from typing import Callable

import numpy as np
import tensorflow as tf

from legacy import estimator as runs
from legacy.hooks.event_recorder import EventRecorderHook
from legacy.hooks.step_tracking import StepTrackingHook
from legacy.hooks.stop_on_condition import StopOnConditionHook
from migrate.parity import scenarios as sizes
from migrate.parity.config import ParityConfig

Progress = Callable[[str], None]
NEVER = 10**9  # checkpoint cadence that leaves only the Estimator's step-0 and final saves


class ProgressHook(StepTrackingHook):
    """Prints the step and its loss every `every` steps, so a long run shows it is alive."""

    def __init__(self, progress: Progress, total: int, every: int) -> None:
        super().__init__("train")
        self.progress, self.total, self.every = progress, total, every

    def after_run(self, run_context, run_values) -> None:
        super().after_run(run_context, run_values)
        if self.step % self.every == 0 or self.step == self.total:
            self.progress(f"  legacy step {self.step}/{self.total}  loss {self.loss:.6f}")


def versions() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "tensorflow": tf.__version__,
        "tensorflow_estimator": importlib.metadata.version("tensorflow-estimator"),
        "keras": tf.keras.__version__ if hasattr(tf.keras, "__version__") else "n/a",
        "numpy": np.__version__,
    }


def estimator_in(directory: Path, config: ParityConfig, save_checkpoints_steps: int = NEVER):
    return runs.make_estimator(
        directory, config.params, seed=config.seed, save_checkpoints_steps=save_checkpoints_steps,
        log_step_count_steps=None, keep_checkpoint_max=None,
    )


def scenario_train_steps(directory: Path, config: ParityConfig, x, y) -> list[dict]:
    recorder = EventRecorderHook("train")
    runs.train(estimator_in(directory, config), (x, y), steps=sizes.TRAIN_STEPS,
               batch_size=sizes.SCENARIO_BATCH_SIZE, hooks=[recorder], shuffle=False)
    return recorder.events


def scenario_data_exhausted(directory: Path, config: ParityConfig, x, y) -> list[dict]:
    recorder = EventRecorderHook("train")
    n = sizes.EXHAUSTED_EXAMPLES
    runs.train(estimator_in(directory, config), (x[:n], y[:n]), batch_size=sizes.SCENARIO_BATCH_SIZE,
               hooks=[recorder], shuffle=False, num_epochs=1)
    return recorder.events


def scenario_stop_at_step(directory: Path, config: ParityConfig, x, y) -> list[dict]:
    recorder = EventRecorderHook("train")
    stopper = StopOnConditionHook(lambda step, loss: step >= sizes.STOP_AT_STEP)
    runs.train(estimator_in(directory, config), (x, y), steps=sizes.TRAIN_STEPS,
               batch_size=sizes.SCENARIO_BATCH_SIZE, hooks=[stopper, recorder], shuffle=False)
    return recorder.events


def _trained_estimator(directory: Path, config: ParityConfig, x, y):
    estimator = estimator_in(directory, config)
    runs.train(estimator, (x, y), steps=1, batch_size=sizes.SCENARIO_BATCH_SIZE, shuffle=False)
    return estimator


def scenario_evaluate(directory: Path, config: ParityConfig, x, y) -> list[dict]:
    recorder = EventRecorderHook("evaluate")
    n = sizes.EVAL_EXAMPLES
    runs.evaluate(_trained_estimator(directory, config, x, y), (x[:n], y[:n]),
                  batch_size=sizes.SCENARIO_BATCH_SIZE, hooks=[recorder])
    return recorder.events


def scenario_predict(directory: Path, config: ParityConfig, x, y) -> list[dict]:
    recorder = EventRecorderHook("predict")
    runs.predict(_trained_estimator(directory, config, x, y), x[: sizes.EVAL_EXAMPLES],
                 batch_size=sizes.SCENARIO_BATCH_SIZE, hooks=[recorder])
    return recorder.events


def scenario_train_and_evaluate(directory: Path, config: ParityConfig, x, y) -> list[dict]:
    train_recorder, eval_recorder = EventRecorderHook("train"), EventRecorderHook("evaluate")
    eval_recorder.events = train_recorder.events  # one list, so training and evaluation interleave as they ran
    steps = sizes.TRAIN_AND_EVALUATE_EPOCH_STEPS
    n = 2 * sizes.SCENARIO_BATCH_SIZE
    runs.train_and_evaluate(
        estimator_in(directory, config, save_checkpoints_steps=steps), (x, y), (x[:n], y[:n]),
        max_steps=steps * sizes.TRAIN_AND_EVALUATE_EPOCHS, batch_size=sizes.SCENARIO_BATCH_SIZE,
        train_hooks=[train_recorder], eval_hooks=[eval_recorder], shuffle=False, throttle_secs=0,
    )
    return train_recorder.events


SCENARIO_RUNNERS = {
    "train-steps": scenario_train_steps,
    "data-exhausted": scenario_data_exhausted,
    "stop-at-step": scenario_stop_at_step,
    "evaluate": scenario_evaluate,
    "predict": scenario_predict,
    "train-and-evaluate": scenario_train_and_evaluate,
}


def run(config: ParityConfig, data, workdir: Path, progress: Progress) -> tuple[dict, dict[str, np.ndarray]]:
    """Train, evaluate on the test set, run the scenarios; return (side record, initial weights)."""
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    estimator = estimator_in(workdir / "main", config)
    initial_checkpoint = runs.write_initial_checkpoint(estimator)
    initial_weights = runs.variables_of(initial_checkpoint)
    recorder = EventRecorderHook("train")
    every = max(1, config.steps // 10)
    runs.train(
        estimator, (data.x_train, data.y_train), steps=config.steps, batch_size=config.batch_size,
        hooks=[ProgressHook(progress, config.steps, every), recorder], shuffle=config.shuffle, seed=config.seed,
    )
    metrics = runs.evaluate(estimator, (data.x_test, data.y_test), batch_size=config.batch_size)
    progress(f"  legacy test accuracy {100 * metrics['accuracy']:.2f}%")
    events = {}
    for name in config.scenarios:
        progress(f"  legacy scenario {name}")
        events[name] = SCENARIO_RUNNERS[name](workdir / name, config, data.x_train[:2048], data.y_train[:2048])
    record = {
        "losses": {str(step): loss for step, loss in sorted(_losses(recorder.events).items())},
        "events": events,
        "metrics": {"accuracy": float(metrics["accuracy"]), "loss": float(metrics["loss"]),
                    "global_step": int(metrics["global_step"])},
        "versions": versions(),
    }
    return record, initial_weights


def _losses(events: list[dict]) -> dict[int, float]:
    return {event["step"]: event["loss"] for event in events if event["event"] == "after_run"}
