"""`NanTensorHook`: watch the loss for NaN and fail (or stop) the training.

`fail_on_nan_loss=True` raises `NanLossDuringTrainingError` from `after_run`,
so `end` is not called and no final checkpoint is written;
`fail_on_nan_loss=False` logs and requests a stop instead. `Estimator.train`
always appends `NanTensorHook(loss)` with `fail_on_nan_loss=True` after the
user's hooks; this factory is for `MonitoredTrainingSession` loops, or for an
earlier, gentler stop in front of the Estimator's own.

Twin: `modern/callbacks/nan_tensor.py` (`TerminateOnNaN`).
"""
from __future__ import annotations

import tensorflow as tf

from legacy.hooks.names import LOSS


def make_nan_tensor_hook(loss_name: str = LOSS, fail_on_nan_loss: bool = True) -> tf.compat.v1.train.NanTensorHook:
    """Check the tensor `loss_name` after every step."""
    return tf.compat.v1.train.NanTensorHook(loss_name, fail_on_nan_loss=fail_on_nan_loss)
