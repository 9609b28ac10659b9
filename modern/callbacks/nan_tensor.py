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

Differences: the loss is read from the logs instead of a fetched tensor:
``logs[loss_key]`` if given, else ``step_loss`` (the loss of that very step,
when the train step reports it), else Keras' running mean ``loss``, which a
stock compiled model reports. The mean is NaN from the first NaN step of the
epoch on, so it triggers at the same step as the step's own loss would. Only
NaN triggers, as in TF1: an inf step makes the mean inf (not NaN), and the
NaN that usually follows triggers at the step TF1 would stop at.
"""
from __future__ import annotations

import logging
import math

from tensorflow import keras

TF1_EQUIVALENT = {
    "hooks": ["NanTensorHook"],
    "callback": "NanTensor",
    "methods": {"after_run": "on_train_batch_end"},
    "differences": [
        "the loss comes from the logs: step_loss if reported, else the running mean loss (NaN from the first NaN step)",
        "fail_on_nan_loss=True raises NanLossDuringTrainingError (on_train_end not called)",
        "fail_on_nan_loss=False sets model.stop_training (graceful); Keras' TerminateOnNaN also stops on inf",
    ],
}

DEFAULT_LOSS_KEYS = ("step_loss", "loss")


class NanLossDuringTrainingError(RuntimeError):
    """The loss became NaN and `fail_on_nan_loss` was True."""


class NanTensor(keras.callbacks.Callback):
    """Checks ``logs[loss_key]`` after every step.

    Args:
        loss_key: the log key to check; default ``step_loss`` when the train
            step reports it, else ``loss`` (the running mean of a stock model).
        fail_on_nan_loss: raise (True) or stop gracefully (False).
        logger: where the message goes (default: the "tensorflow" logger, as TF1).
    """

    def __init__(self, loss_key: str | None = None, fail_on_nan_loss: bool = True, logger: logging.Logger | None = None) -> None:
        super().__init__()
        self.loss_key = loss_key
        self.fail_on_nan_loss = fail_on_nan_loss
        self.logger = logger or logging.getLogger("tensorflow")

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        logs = logs or {}
        key = self.loss_key or next((key for key in DEFAULT_LOSS_KEYS if key in logs), DEFAULT_LOSS_KEYS[-1])
        if key not in logs:
            raise KeyError(
                f"NanTensor: no {key!r} in the train step's logs (keys: {sorted(logs)}); return it from "
                "train_step or pass the key holding the loss as loss_key."
            )
        if math.isnan(float(logs[key])):
            message = "Model diverged with loss = NaN."
            if self.fail_on_nan_loss:
                self.logger.error(message)
                step = int(self.model.optimizer.iterations.numpy())
                raise NanLossDuringTrainingError(f"NaN loss during training (global step {step}).")
            self.logger.warning(message)
            self.model.stop_training = True
