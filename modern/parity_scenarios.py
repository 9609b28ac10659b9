"""The six event scenarios of `migrate.core.scenarios`, run with Keras `fit` and callbacks.

The MNIST pair (`migrate/pairs/mnist.py`) hands `run_scenarios` to the parity
engine as its `modern_scenarios`; the twin is `legacy.parity_scenarios`. Each
scenario gets a fresh model holding the legacy initial weights and records
the protocol events with `EventRecorder`, on 2,048 training images.
"""
from __future__ import annotations

from collections.abc import Callable

import keras
import numpy as np

from migrate.core import scenarios as sizes
from modern import training
from modern.callbacks.event_recorder import EventRecorder
from modern.callbacks.stop_on_condition import StopOnCondition
from modern.pipeline import eval_dataset, train_dataset

SCENARIO_EXAMPLES = 2048


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



def run_scenarios(
    names: list[str], fresh_model: Callable[[], keras.Model], x: np.ndarray, y: np.ndarray
) -> dict[str, list[dict]]:
    """Events of each named scenario, each on a fresh model, on the first 2,048 examples of (x, y)."""
    x, y = x[:SCENARIO_EXAMPLES], y[:SCENARIO_EXAMPLES]
    return {name: SCENARIO_RUNNERS[name](fresh_model(), x, y) for name in names}
