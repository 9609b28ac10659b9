"""`NanTensor`: fail or stop when the step's loss is NaN, as `NanTensorHook` does.

Replaces `tf.compat.v1.train.NanTensorHook(loss_tensor, fail_on_nan_loss=True)`
(twin: `legacy/hooks/nan_tensor.py`). Keras' own `TerminateOnNaN` only ever
stops (and also on inf); this keeps TF1's two modes.

Method mapping: `after_run` → `on_train_batch_end`.

* ``fail_on_nan_loss=True``: logs an error and raises
  `NanLossDuringTrainingError`; as in TF1 the loop ends with the exception,
  so `on_train_end` (TF1: `end`) is NOT called;
* ``fail_on_nan_loss=False``: logs a warning and sets `model.stop_training`,
  a graceful stop after that step (`on_train_end` runs).

Differences: the loss is read from ``logs[loss_key]`` (default ``step_loss``,
the loss of that very step; ``logs["loss"]`` is a running mean, which also
becomes NaN but stays NaN) instead of a fetched tensor. Only NaN triggers, not
inf, as in TF1.
"""
from __future__ import annotations

import logging
import math

import keras

TF1_EQUIVALENT = {
    "hooks": ["NanTensorHook"],
    "callback": "NanTensor",
    "methods": {"after_run": "on_train_batch_end"},
    "differences": [
        "the loss comes from logs['step_loss'] (configurable), not a fetched tensor",
        "fail_on_nan_loss=True raises NanLossDuringTrainingError (on_train_end not called)",
        "fail_on_nan_loss=False sets model.stop_training (graceful); Keras' TerminateOnNaN also stops on inf",
    ],
}


class NanLossDuringTrainingError(RuntimeError):
    """The loss became NaN and `fail_on_nan_loss` was True."""


class NanTensor(keras.callbacks.Callback):
    """Checks ``logs[loss_key]`` after every step.

    Args:
        loss_key: the log key with the step's loss.
        fail_on_nan_loss: raise (True) or stop gracefully (False).
        logger: where the message goes (default: the "tensorflow" logger, as TF1).
    """

    def __init__(self, loss_key: str = "step_loss", fail_on_nan_loss: bool = True, logger: logging.Logger | None = None) -> None:
        super().__init__()
        self.loss_key = loss_key
        self.fail_on_nan_loss = fail_on_nan_loss
        self.logger = logger or logging.getLogger("tensorflow")

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        logs = logs or {}
        if self.loss_key not in logs:
            raise KeyError(
                f"NanTensor: no {self.loss_key!r} in the train step's logs (keys: {sorted(logs)}); return it from "
                "train_step or pass loss_key='loss'."
            )
        if math.isnan(float(logs[self.loss_key])):
            message = "Model diverged with loss = NaN."
            if self.fail_on_nan_loss:
                self.logger.error(message)
                step = int(self.model.optimizer.iterations.numpy())
                raise NanLossDuringTrainingError(f"NaN loss during training (global step {step}).")
            self.logger.warning(message)
            self.model.stop_training = True
