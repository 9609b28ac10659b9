"""The Estimator's early stopping: `tf.estimator.experimental.stop_if_no_decrease_hook`.

It reads the evaluation summaries that `train_and_evaluate` writes to
`estimator.eval_dir()` and requests a stop when `metric_name` has not
decreased for `max_steps_without_decrease` *training steps* (not epochs, not
evaluations). It checks every `run_every_steps` steps (or `run_every_secs`).
It belongs in `TrainSpec(hooks=[...])`.

Twin: `modern/callbacks/early_stopping.py` (`EarlyStopping`, whose patience
also counts training steps — unlike Keras' stock `EarlyStopping`, which
counts epochs).
"""
from __future__ import annotations

import tensorflow as tf


def make_early_stopping_hook(
    estimator: tf.estimator.Estimator,
    metric_name: str = "loss",
    max_steps_without_decrease: int = 1000,
    min_steps: int = 0,
    run_every_steps: int | None = 100,
    run_every_secs: float | None = None,
    eval_dir: str | None = None,
) -> tf.compat.v1.train.SessionRunHook:
    """Stop when the evaluated `metric_name` has not decreased in `max_steps_without_decrease` steps."""
    return tf.estimator.experimental.stop_if_no_decrease_hook(
        estimator,
        metric_name,
        max_steps_without_decrease,
        eval_dir=eval_dir,
        min_steps=min_steps,
        run_every_secs=run_every_secs,
        run_every_steps=run_every_steps,
    )
