"""The six event scenarios of `migrate.core.scenarios`, run on the Estimator with SessionRunHooks.

The MNIST pair (`migrate/pairs/mnist.py`) hands `run_scenarios` to the parity
engine as its `legacy_scenarios`; the twin is `modern.parity_scenarios`. Each
scenario records the protocol events with `EventRecorderHook`, on 2,048
training images.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from legacy import estimator as runs
from legacy.hooks.event_recorder import EventRecorderHook
from legacy.hooks.stop_on_condition import StopOnConditionHook
from migrate.core import scenarios as sizes
from migrate.core.mnist_model import DEFAULT_PARAMS

NEVER = 10**9  # checkpoint cadence that leaves only the Estimator's step-0 and final saves
SCENARIO_EXAMPLES = 2048


def model_params(params: dict) -> dict:
    """The keys of `params` that `legacy.model.model_fn` takes."""
    return {key: params[key] for key in DEFAULT_PARAMS if key in params}


def estimator_in(directory: Path, params: dict, save_checkpoints_steps: int = NEVER):
    return runs.make_estimator(
        directory, model_params(params), seed=int(params["seed"]), save_checkpoints_steps=save_checkpoints_steps,
        log_step_count_steps=None, keep_checkpoint_max=None,
    )


def scenario_train_steps(directory: Path, params: dict, x, y) -> list[dict]:
    recorder = EventRecorderHook("train")
    runs.train(estimator_in(directory, params), (x, y), steps=sizes.TRAIN_STEPS,
               batch_size=sizes.SCENARIO_BATCH_SIZE, hooks=[recorder], shuffle=False)
    return recorder.events


def scenario_data_exhausted(directory: Path, params: dict, x, y) -> list[dict]:
    recorder = EventRecorderHook("train")
    n = sizes.EXHAUSTED_EXAMPLES
    runs.train(estimator_in(directory, params), (x[:n], y[:n]), batch_size=sizes.SCENARIO_BATCH_SIZE,
               hooks=[recorder], shuffle=False, num_epochs=1)
    return recorder.events


def scenario_stop_at_step(directory: Path, params: dict, x, y) -> list[dict]:
    recorder = EventRecorderHook("train")
    stopper = StopOnConditionHook(lambda step, loss: step >= sizes.STOP_AT_STEP)
    runs.train(estimator_in(directory, params), (x, y), steps=sizes.TRAIN_STEPS,
               batch_size=sizes.SCENARIO_BATCH_SIZE, hooks=[stopper, recorder], shuffle=False)
    return recorder.events


def _trained_estimator(directory: Path, params: dict, x, y):
    estimator = estimator_in(directory, params)
    runs.train(estimator, (x, y), steps=1, batch_size=sizes.SCENARIO_BATCH_SIZE, shuffle=False)
    return estimator


def scenario_evaluate(directory: Path, params: dict, x, y) -> list[dict]:
    recorder = EventRecorderHook("evaluate")
    n = sizes.EVAL_EXAMPLES
    runs.evaluate(_trained_estimator(directory, params, x, y), (x[:n], y[:n]),
                  batch_size=sizes.SCENARIO_BATCH_SIZE, hooks=[recorder])
    return recorder.events


def scenario_predict(directory: Path, params: dict, x, y) -> list[dict]:
    recorder = EventRecorderHook("predict")
    runs.predict(_trained_estimator(directory, params, x, y), x[: sizes.EVAL_EXAMPLES],
                 batch_size=sizes.SCENARIO_BATCH_SIZE, hooks=[recorder])
    return recorder.events


def scenario_train_and_evaluate(directory: Path, params: dict, x, y) -> list[dict]:
    train_recorder, eval_recorder = EventRecorderHook("train"), EventRecorderHook("evaluate")
    eval_recorder.events = train_recorder.events  # one list, so training and evaluation interleave as they ran
    steps = sizes.TRAIN_AND_EVALUATE_EPOCH_STEPS
    n = 2 * sizes.SCENARIO_BATCH_SIZE
    runs.train_and_evaluate(
        estimator_in(directory, params, save_checkpoints_steps=steps), (x, y), (x[:n], y[:n]),
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



def run_scenarios(params: dict, workdir: Path, x: np.ndarray, y: np.ndarray) -> dict[str, list[dict]]:
    """Events of each scenario named in ``params["scenarios"]``, on the first 2,048 examples of (x, y)."""
    x, y = x[:SCENARIO_EXAMPLES], y[:SCENARIO_EXAMPLES]
    runners: dict[str, Callable] = SCENARIO_RUNNERS
    return {name: runners[name](Path(workdir) / name, params, x, y) for name in params["scenarios"]}
