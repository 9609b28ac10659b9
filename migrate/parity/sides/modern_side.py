"""The modern side: Keras `fit` + callbacks on the generator pipeline (TF 2.15 or 2.21)."""
from __future__ import annotations

import importlib.metadata
import platform
from pathlib import Path
from typing import Callable

import numpy as np
import tensorflow as tf
from tensorflow import keras

from migrate.parity import scenarios as sizes
from migrate.parity.config import ParityConfig
from modern import training
from modern.callbacks.event_recorder import EventRecorder
from modern.callbacks.stop_on_condition import StopOnCondition
from modern.model import build_model
from modern.pipeline import eval_dataset, train_dataset
from modern.weights import legacy_variables

Progress = Callable[[str], None]


class ProgressCallback(keras.callbacks.Callback):
    """Prints the global step and that step's loss every `every` steps."""

    def __init__(self, progress: Progress, total: int, every: int) -> None:
        super().__init__()
        self.progress, self.total, self.every = progress, total, every

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        logs = logs or {}
        step = int(round(float(logs.get("global_step", 0))))
        if step % self.every == 0 or step == self.total:
            self.progress(f"  modern step {step}/{self.total}  loss {float(logs.get('step_loss', float('nan'))):.6f}")


def versions() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "tensorflow": tf.__version__,
        # `tensorflow.keras` on Keras 2.15 has no __version__; the installed distribution says it.
        "keras": getattr(keras, "__version__", None) or importlib.metadata.version("keras"),
        "numpy": np.__version__,
    }


def model_with_weights(config: ParityConfig, weights: dict[str, np.ndarray]) -> keras.Model:
    """The Keras twin, its legacy-named variables set to exactly `weights`."""
    model = build_model(config.modern_params, seed=config.seed)
    variables = legacy_variables(model)
    missing = sorted(set(variables) - set(weights))
    if missing:
        raise ValueError(f"initial weights lack {', '.join(missing)}; the trace or checkpoint is not from the legacy model")
    for name, variable in variables.items():
        variable.assign(weights[name])
    return model


def scenario_train_steps(model: keras.Model, x, y) -> list[dict]:
    recorder = EventRecorder()
    training.fit_steps(model, train_dataset(x, y, sizes.SCENARIO_BATCH_SIZE), sizes.TRAIN_STEPS, [recorder])
    return recorder.events


def scenario_data_exhausted(model: keras.Model, x, y) -> list[dict]:
    recorder = EventRecorder()
    n = sizes.EXHAUSTED_EXAMPLES
    training.fit_steps(model, train_dataset(x[:n], y[:n], sizes.SCENARIO_BATCH_SIZE, repeat=False), None, [recorder])
    return recorder.events


def scenario_stop_at_step(model: keras.Model, x, y) -> list[dict]:
    recorder = EventRecorder()
    stopper = StopOnCondition(lambda step, loss: step >= sizes.STOP_AT_STEP)
    training.fit_steps(model, train_dataset(x, y, sizes.SCENARIO_BATCH_SIZE), sizes.TRAIN_STEPS, [stopper, recorder])
    return recorder.events


def scenario_evaluate(model: keras.Model, x, y) -> list[dict]:
    recorder = EventRecorder()
    n = sizes.EVAL_EXAMPLES
    training.evaluate(model, eval_dataset(x[:n], y[:n], sizes.SCENARIO_BATCH_SIZE), [recorder])
    return recorder.events


def scenario_predict(model: keras.Model, x, y) -> list[dict]:
    recorder = EventRecorder()
    n = sizes.EVAL_EXAMPLES
    training.predict(model, eval_dataset(x[:n], y[:n], sizes.SCENARIO_BATCH_SIZE), [recorder])
    return recorder.events


def scenario_train_and_evaluate(model: keras.Model, x, y) -> list[dict]:
    recorder = EventRecorder()
    n = 2 * sizes.SCENARIO_BATCH_SIZE
    model.fit(
        train_dataset(x, y, sizes.SCENARIO_BATCH_SIZE), epochs=sizes.TRAIN_AND_EVALUATE_EPOCHS,
        steps_per_epoch=sizes.TRAIN_AND_EVALUATE_EPOCH_STEPS,
        validation_data=eval_dataset(x[:n], y[:n], sizes.SCENARIO_BATCH_SIZE), callbacks=[recorder], verbose=0,
    )
    return recorder.events


SCENARIO_RUNNERS = {
    "train-steps": scenario_train_steps,
    "data-exhausted": scenario_data_exhausted,
    "stop-at-step": scenario_stop_at_step,
    "evaluate": scenario_evaluate,
    "predict": scenario_predict,
    "train-and-evaluate": scenario_train_and_evaluate,
}


def run(config: ParityConfig, data, workdir: Path, progress: Progress, initial_weights: dict[str, np.ndarray]) -> dict:
    """Train from the legacy initial weights, evaluate on the test set, run the scenarios."""
    model = model_with_weights(config, initial_weights)
    recorder = EventRecorder()
    every = max(1, config.steps // 10)
    dataset = train_dataset(
        data.x_train, data.y_train, config.batch_size, shuffle_seed=config.seed if config.shuffle else None
    )
    training.fit_steps(model, dataset, config.steps, [ProgressCallback(progress, config.steps, every), recorder])
    metrics = training.evaluate(model, eval_dataset(data.x_test, data.y_test, config.batch_size))
    progress(f"  modern test accuracy {100 * metrics['accuracy']:.2f}%")
    events = {}
    for name in config.scenarios:
        progress(f"  modern scenario {name}")
        scenario_model = model_with_weights(config, initial_weights)
        events[name] = SCENARIO_RUNNERS[name](scenario_model, data.x_train[:2048], data.y_train[:2048])
    return {
        "losses": {
            str(event["step"]): event["loss"] for event in recorder.events
            if event["event"] == "after_run" and "loss" in event
        },
        "events": events,
        "metrics": {key: float(value) for key, value in metrics.items()},
        "versions": versions(),
    }
