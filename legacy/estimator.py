"""`tf.estimator.Estimator` entry points over the placeholder-fed input pipeline.

Each function takes numpy arrays, builds the recipe's input function and its
`IteratorInitializerHook` (first in the hooks list), and adds the caller's
hooks after it, in order. They compose: the parity harness writes an initial
checkpoint, then calls `train` / `evaluate` / `predict` with its own hooks and
`shuffle=False`.

`train_and_evaluate` is the TF2-era form of the tutorial's `Experiment` +
`learn_runner`: `tf.estimator.train_and_evaluate` with a `TrainSpec` and an
`EvalSpec`.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import tensorflow as tf

from legacy.inputs import eval_input, train_input
from legacy.model import VARIABLE_SHAPES, initial_weights, merged_params, model_fn

Arrays = tuple[np.ndarray, np.ndarray]
Hooks = Sequence[tf.compat.v1.train.SessionRunHook]


def make_run_config(
    model_dir: str | os.PathLike,
    seed: int = 0,
    save_checkpoints_steps: int | None = 100,
    log_step_count_steps: int | None = 100,
    save_summary_steps: int = 100,
    keep_checkpoint_max: int | None = 5,
) -> tf.estimator.RunConfig:
    """The RunConfig: graph seed, checkpoint/summary/log cadence (`keep_checkpoint_max=None` keeps all)."""
    return tf.estimator.RunConfig(
        model_dir=str(model_dir),
        tf_random_seed=seed,
        save_checkpoints_steps=save_checkpoints_steps,
        save_summary_steps=save_summary_steps,
        log_step_count_steps=log_step_count_steps,
        keep_checkpoint_max=keep_checkpoint_max,
    )


def make_estimator(
    model_dir: str | os.PathLike,
    params: Mapping[str, Any] | None = None,
    seed: int = 0,
    save_checkpoints_steps: int | None = 100,
    log_step_count_steps: int | None = 100,
    save_summary_steps: int = 100,
    keep_checkpoint_max: int | None = 5,
) -> tf.estimator.Estimator:
    """An Estimator for `legacy.model.model_fn`; `seed` seeds the graph and the model's initializers/dropout."""
    config = make_run_config(
        model_dir, seed, save_checkpoints_steps, log_step_count_steps, save_summary_steps, keep_checkpoint_max
    )
    return tf.estimator.Estimator(model_fn=model_fn, config=config, params={**merged_params(params), "seed": seed})


def train(
    estimator: tf.estimator.Estimator,
    data: Arrays,
    steps: int | None = None,
    batch_size: int = 128,
    hooks: Hooks = (),
    shuffle: bool = True,
    seed: int | None = None,
    *,
    max_steps: int | None = None,
    num_epochs: int | None = None,
    saving_listeners: Sequence[tf.compat.v1.train.CheckpointSaverListener] = (),
) -> tf.estimator.Estimator:
    """Train `steps` more steps (or up to global step `max_steps`) on arrays (x, y).

    Hooks run in the order [iterator initializer, *hooks, then the
    Estimator's own: StopAtStepHook, NanTensorHook, LoggingTensorHook, and on
    the chief CheckpointSaverHook, StepCounterHook, SummarySaverHook]. With
    `num_epochs` the input ends after that many passes (an input-exhaustion
    stop); `seed` seeds the shuffle.
    """
    x, y = data
    input_fn, init_hook = train_input(x, y, batch_size=batch_size, shuffle=shuffle, seed=seed, num_epochs=num_epochs)
    return estimator.train(
        input_fn, hooks=[init_hook, *hooks], steps=steps, max_steps=max_steps,
        saving_listeners=list(saving_listeners) or None,
    )


def evaluate(
    estimator: tf.estimator.Estimator,
    data: Arrays,
    batch_size: int = 128,
    hooks: Hooks = (),
    *,
    steps: int | None = None,
    checkpoint_path: str | None = None,
    name: str | None = None,
) -> dict[str, Any]:
    """One pass over (x, y) from the latest checkpoint: {"loss", "accuracy", "global_step"}."""
    x, y = data
    input_fn, init_hook = eval_input(x, y, batch_size=batch_size)
    return estimator.evaluate(
        input_fn, steps=steps, hooks=[init_hook, *hooks], checkpoint_path=checkpoint_path, name=name
    )


def predict(
    estimator: tf.estimator.Estimator,
    data: np.ndarray | Arrays,
    batch_size: int = 128,
    hooks: Hooks = (),
    *,
    checkpoint_path: str | None = None,
) -> dict[str, np.ndarray]:
    """Predict every image of `data` (x or (x, y)): {"classes", "probabilities", "logits"} stacked.

    Consumes the Estimator's prediction generator to the end, so the hooks'
    `end` runs (stopping a generator early may skip it).
    """
    x = data[0] if isinstance(data, tuple) else data
    input_fn, init_hook = eval_input(x, batch_size=batch_size)
    columns: dict[str, list[np.ndarray]] = {}
    for prediction in estimator.predict(
        input_fn, hooks=[init_hook, *hooks], checkpoint_path=checkpoint_path, yield_single_examples=False
    ):
        for key, value in prediction.items():
            columns.setdefault(key, []).append(value)
    return {key: np.concatenate(values) for key, values in columns.items()}


def train_and_evaluate(
    estimator: tf.estimator.Estimator,
    train_data: Arrays,
    eval_data: Arrays,
    max_steps: int,
    batch_size: int = 128,
    train_hooks: Hooks = (),
    eval_hooks: Hooks = (),
    shuffle: bool = True,
    seed: int | None = None,
    *,
    eval_batch_size: int | None = None,
    eval_steps: int | None = None,
    start_delay_secs: int = 0,
    throttle_secs: int = 600,
) -> tuple[dict[str, Any] | None, Any]:
    """`tf.estimator.train_and_evaluate` to global step `max_steps`; returns (last eval metrics, exports).

    Locally it evaluates after a checkpoint is saved once `throttle_secs` have
    passed since the last evaluation, and always at the end.
    """
    train_input_fn, train_init_hook = train_input(*train_data, batch_size=batch_size, shuffle=shuffle, seed=seed)
    eval_input_fn, eval_init_hook = eval_input(*eval_data, batch_size=eval_batch_size or batch_size)
    train_spec = tf.estimator.TrainSpec(train_input_fn, max_steps=max_steps, hooks=[train_init_hook, *train_hooks])
    eval_spec = tf.estimator.EvalSpec(
        eval_input_fn, steps=eval_steps, hooks=[eval_init_hook, *eval_hooks],
        start_delay_secs=start_delay_secs, throttle_secs=throttle_secs,
    )
    return tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)


def write_initial_checkpoint(
    estimator: tf.estimator.Estimator, weights: Mapping[str, np.ndarray] | None = None
) -> str:
    """Save step-0 weights to an empty model dir, so evaluation and parity can start from them.

    `weights` (checkpoint name → array, see `VARIABLE_SHAPES`) default to the
    estimator's seeded initial weights; the optimizer's slots start at their
    initial values. Returns the checkpoint path.
    """
    if tf.train.latest_checkpoint(estimator.model_dir):
        raise FileExistsError(
            f"{estimator.model_dir} already holds a checkpoint; write the initial checkpoint into an empty model dir."
        )
    params = estimator.params
    seed = estimator.config.tf_random_seed
    weights = dict(weights if weights is not None else initial_weights(params, seed=seed))
    _check_weights(weights)
    with tf.Graph().as_default():
        tf.compat.v1.set_random_seed(seed)
        global_step = tf.compat.v1.train.get_or_create_global_step()
        images = tf.compat.v1.placeholder(tf.uint8, [None, 28, 28])
        labels = tf.compat.v1.placeholder(tf.int64, [None])
        model_fn(images, labels, tf.estimator.ModeKeys.TRAIN, params)
        variables = {v.op.name: v for v in tf.compat.v1.global_variables()}
        assigns = [variables[name].assign(value) for name, value in weights.items()]
        saver = tf.compat.v1.train.Saver(save_relative_paths=True)
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            session.run(assigns)
            os.makedirs(estimator.model_dir, exist_ok=True)
            return saver.save(session, os.path.join(estimator.model_dir, "model.ckpt"), global_step=global_step)


def _check_weights(weights: Mapping[str, np.ndarray]) -> None:
    missing = sorted(set(VARIABLE_SHAPES) - set(weights))
    unknown = sorted(set(weights) - set(VARIABLE_SHAPES))
    if missing or unknown:
        raise ValueError(f"weights must cover exactly VARIABLE_SHAPES; missing {missing}, unknown {unknown}.")
    for name, shape in VARIABLE_SHAPES.items():
        if tuple(np.shape(weights[name])) != shape:
            raise ValueError(f"weights[{name!r}] has shape {np.shape(weights[name])}, expected {shape}.")


def checkpoint_steps(model_dir: str | os.PathLike, basename: str = "model.ckpt") -> list[int]:
    """Global steps of the complete checkpoints on disk, oldest first.

    A checkpoint is complete once its `.index` file exists: TensorFlow writes
    it last, after the data files, and only then updates the `checkpoint`
    state file. (With `keep_checkpoint_max=None` the state file lists only
    the latest checkpoint, so it cannot be used to list them all.)
    """
    pattern = re.compile(rf"{re.escape(basename)}-(\d+)\.index$")
    matches = (pattern.match(path.name) for path in Path(model_dir).glob(f"{basename}-*.index"))
    return sorted(int(match.group(1)) for match in matches if match)


def latest_step(model_dir: str | os.PathLike) -> int | None:
    """The global step stored in the latest checkpoint of `model_dir`, or None if there is none."""
    path = tf.train.latest_checkpoint(str(model_dir))
    if path is None:
        return None
    return int(tf.train.load_variable(path, "global_step"))


def variables_of(checkpoint: str, names: Iterable[str] = VARIABLE_SHAPES) -> dict[str, np.ndarray]:
    """Read model variables from a checkpoint (a path or a model dir)."""
    path = tf.train.latest_checkpoint(checkpoint) if os.path.isdir(checkpoint) else checkpoint
    if path is None:
        raise FileNotFoundError(f"no checkpoint in {checkpoint}.")
    return {name: tf.train.load_variable(path, name) for name in names}
