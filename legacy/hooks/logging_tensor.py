"""`LoggingTensorHook`: print named tensors every N steps, as the TF1 MNIST tutorial does.

Real code passes tensor *names* because the hook is built before the graph;
it resolves them in `begin`. TF1 code wrote ``"global_step"`` for the step;
with TF 2.x resource variables that is the handle, so the default reads
`legacy.hooks.names.GLOBAL_STEP` instead.

`Estimator.train` already adds one for loss and step every
`RunConfig.log_step_count_steps`.

Twin: `modern/callbacks/logging_tensor.py` (Keras has no graph names: the
values must come from the train step's logs).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

import tensorflow as tf

from legacy.hooks.names import GLOBAL_STEP, LOSS

DEFAULT_TENSORS = {"loss": LOSS, "step": GLOBAL_STEP}


def make_logging_tensor_hook(
    tensors: Mapping[str, str] | None = None,
    every_n_iter: int | None = 100,
    every_n_secs: float | None = None,
    at_end: bool = False,
    formatter: Callable[[dict], str] | None = None,
) -> tf.compat.v1.train.LoggingTensorHook:
    """Log `tensors` (tag → tensor name; default loss and global step) every `every_n_iter` steps.

    `formatter` receives {tag: value} and returns the line to log; real code
    uses it to shape the message, tests to capture the values.
    """
    return tf.compat.v1.train.LoggingTensorHook(
        tensors=dict(tensors or DEFAULT_TENSORS),
        every_n_iter=every_n_iter,
        every_n_secs=every_n_secs,
        at_end=at_end,
        formatter=formatter,
    )
