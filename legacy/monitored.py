"""A raw `tf.compat.v1.train.MonitoredTrainingSession` loop over the same model and input.

What the Estimator does under the hood, written out as TF1 code did before
(or instead of) Estimators::

    with tf.compat.v1.train.MonitoredTrainingSession(
            is_chief=True, checkpoint_dir=..., hooks=..., scaffold=...) as session:
        while not session.should_stop():
            session.run(train_op)

The session restores the latest checkpoint of `checkpoint_dir` (so the loop
resumes), and on the chief adds a CheckpointSaverHook, StepCounterHook and
SummarySaverHook before the caller's hooks. The checkpoints are the
Estimator's: the same `model_fn` makes the same variable names, so an
Estimator can evaluate what this loop trained, and vice versa.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import tensorflow as tf

from legacy.hooks.step_tracking import StepTrackingHook
from legacy.inputs import train_input
from legacy.model import merged_params, model_fn


def train_monitored(
    data: tuple[np.ndarray, np.ndarray],
    *,
    checkpoint_dir: str | os.PathLike | None,
    steps: int | None = None,
    last_step: int | None = None,
    batch_size: int = 128,
    params: Mapping[str, Any] | None = None,
    seed: int = 0,
    hooks: Sequence[tf.compat.v1.train.SessionRunHook] = (),
    shuffle: bool = True,
    num_epochs: int | None = None,
    is_chief: bool = True,
    save_checkpoint_steps: int | None = 100,
    save_summaries_steps: int | None = 100,
    log_step_count_steps: int | None = 100,
    keep_checkpoint_max: int | None = 5,
) -> int:
    """Train `steps` more steps (or to global step `last_step`, or until the input ends); return the global step.

    Hook order mirrors `Estimator.train`: [iterator initializer, a step
    tracker (for the return value), *hooks, StopAtStepHook], after the
    chief's own hooks. `checkpoint_dir=None` means
    no restore and no automatic saving (bring a CheckpointSaverHook).
    """
    params = {**merged_params(params), "seed": seed}
    with tf.Graph().as_default():
        tf.compat.v1.set_random_seed(seed)
        tf.compat.v1.train.get_or_create_global_step()
        input_fn, init_hook = train_input(*data, batch_size=batch_size, shuffle=shuffle, seed=seed, num_epochs=num_epochs)
        images, labels = input_fn()
        spec = model_fn(images, labels, tf.estimator.ModeKeys.TRAIN, params)
        tf.compat.v1.summary.scalar("loss", spec.loss)
        scaffold = tf.compat.v1.train.Scaffold(
            saver=tf.compat.v1.train.Saver(max_to_keep=keep_checkpoint_max, save_relative_paths=True)
        )
        tracker = StepTrackingHook("train")
        all_hooks = [init_hook, tracker, *hooks]
        if steps is not None or last_step is not None:
            all_hooks.append(tf.compat.v1.train.StopAtStepHook(num_steps=steps, last_step=last_step))
        with tf.compat.v1.train.MonitoredTrainingSession(
            is_chief=is_chief,
            checkpoint_dir=None if checkpoint_dir is None else str(checkpoint_dir),
            scaffold=scaffold,
            hooks=all_hooks,
            save_checkpoint_steps=save_checkpoint_steps,
            save_checkpoint_secs=None,
            save_summaries_steps=save_summaries_steps,
            log_step_count_steps=log_step_count_steps,
        ) as session:
            while not session.should_stop():
                session.run(spec.train_op)
        return tracker.step
