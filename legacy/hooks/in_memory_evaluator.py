"""`InMemoryEvaluatorHook`: evaluate the training session's variables every N steps, without a checkpoint.

`tf.estimator.experimental.InMemoryEvaluatorHook(estimator, input_fn,
every_n_iter=...)` builds an evaluation graph in `begin`, and copies the
training variables into it to run `Estimator.evaluate`'s loop: once in
`after_create_session` (before the first step), after every `every_n_iter`
steps of this `train` call, and in `end`. Each result goes to the summaries of
``<model_dir>/eval[_<name>]`` at the global step. Single machine only.

Twin: `modern/callbacks/in_memory_evaluator.py` (`InMemoryEvaluator`, which
runs `model.evaluate` on the live model on the same schedule).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import tensorflow as tf


def make_in_memory_evaluator_hook(
    estimator: tf.estimator.Estimator,
    input_fn: Callable,
    hooks: Sequence[tf.compat.v1.train.SessionRunHook] = (),
    every_n_iter: int = 100,
    steps: int | None = None,
    name: str | None = None,
) -> tf.estimator.experimental.InMemoryEvaluatorHook:
    """Evaluate `input_fn` (with its `hooks`, e.g. an iterator initializer) at the start, every N steps and at the end."""
    return tf.estimator.experimental.InMemoryEvaluatorHook(
        estimator, input_fn, steps=steps, hooks=list(hooks), name=name, every_n_iter=every_n_iter
    )
