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
epoch on, so it triggers at the same step as the step's own loss would.

NaN or inf? TF1's hook tests ``np.isnan(loss)`` only: an inf loss does not
stop it, and neither does it stop this callback by default (the running mean
of a stock model is then inf, not NaN). An inf loss usually turns the
weights NaN at that update (inf gradients), so the next step's loss is NaN
and both stop there, one step later. ``detect_inf=True`` also stops at the
inf step itself, like Keras' `TerminateOnNaN`: the mean is inf from that step
on, so it fires at the same step as the step's own loss. One case the mean
cannot follow: a later ``-inf`` step loss would make an inf mean NaN (TF1
would not stop there); losses that cannot be negative (cross-entropy, MSE)
never do this. Measured against the real TF1 hook on Keras 2.15, Keras 3 and
tf-keras: `tests/modern/callbacks/test_nan_tensor.py`.

Distributed: TF1 gave `NanTensorHook` to every worker, each checking its own loss. Under
`MultiWorkerMirroredStrategy` Keras runs this callback on every worker and
does not share `model.stop_training`; a worker stopping alone would leave
the others blocked in the next all-reduce. So "the loss diverged" is OR-ed over the
workers (`_any_worker`, one all-reduce per step) and every worker raises (or stops) after
the same step (the other workers report "NaN (on another worker)"). Under
`ParameterServerStrategy` callbacks run on the coordinator only.
"""
from __future__ import annotations

import logging
import math

import tensorflow as tf
from tensorflow import keras

TF1_EQUIVALENT = {
    "hooks": ["NanTensorHook"],
    "callback": "NanTensor",
    "methods": {"after_run": "on_train_batch_end"},
    "differences": [
        "the loss comes from the logs: step_loss if reported, else the running mean loss (NaN from the first NaN step)",
        "fail_on_nan_loss=True raises NanLossDuringTrainingError (on_train_end not called)",
        "fail_on_nan_loss=False sets model.stop_training (graceful); Keras' TerminateOnNaN also stops on inf",
        "NaN only by default, as TF1; detect_inf=True also stops at an inf loss (TerminateOnNaN's rule)",
        "multi-worker: runs on every worker; a NaN on any worker raises (or stops) on all after the same step",
    ],
}

DEFAULT_LOSS_KEYS = ("step_loss", "loss")


def _any_worker(model: keras.Model, flag: bool) -> bool:
    """`flag` OR-ed over every worker of a `MultiWorkerMirroredStrategy` (one all-reduce); `flag` itself elsewhere.

    Keras runs every callback on every worker and does not share
    `model.stop_training`: a worker that leaves `fit` alone leaves the others
    blocked in the next step's all-reduce. Deciding a stop (or a failure) from
    this value makes every worker act after the same step. Every worker must
    call it at the same points, which holds when they run the same callbacks on
    the same global steps. Copied unchanged into each callback file that stops
    training, so each file stands alone.
    """
    strategy = getattr(model, "distribute_strategy", None)
    if not isinstance(strategy, tf.distribute.MultiWorkerMirroredStrategy) or strategy.num_replicas_in_sync < 2:
        return bool(flag)
    vote = tf.constant(1.0 if flag else 0.0)
    votes = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce(tf.distribute.ReduceOp.SUM, vote))
    return float(strategy.experimental_local_results(votes)[0]) > 0


class NanLossDuringTrainingError(RuntimeError):
    """The loss became NaN (or inf, with `detect_inf`) and `fail_on_nan_loss` was True."""


class NanTensor(keras.callbacks.Callback):
    """Checks ``logs[loss_key]`` after every step.

    Args:
        loss_key: the log key to check; default ``step_loss`` when the train
            step reports it, else ``loss`` (the running mean of a stock model).
        fail_on_nan_loss: raise (True) or stop gracefully (False).
        logger: where the message goes (default: the "tensorflow" logger, as TF1).
        detect_inf: also treat an inf loss as divergence (default False: TF1
            checks for NaN only; see the module docstring).

    Example:
        model.fit(x, y, callbacks=[NanTensor()])  # instead of NanTensorHook(loss)
    """

    def __init__(
        self,
        loss_key: str | None = None,
        fail_on_nan_loss: bool = True,
        logger: logging.Logger | None = None,
        detect_inf: bool = False,
    ) -> None:
        super().__init__()
        self.loss_key = loss_key
        self.fail_on_nan_loss = fail_on_nan_loss
        self.logger = logger or logging.getLogger("tensorflow")
        self.detect_inf = detect_inf
        # Keras 2 / tf-keras: take the logs as tensors and convert only the loss, instead of having
        # Keras convert every log to numpy on every step for this callback (Keras 3 ignores the flag).
        self._supports_tf_logs = True

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        logs = logs or {}
        key = self.loss_key or next((key for key in DEFAULT_LOSS_KEYS if key in logs), DEFAULT_LOSS_KEYS[-1])
        if key not in logs:
            raise KeyError(
                f"NanTensor: no {key!r} in the train step's logs (keys: {sorted(logs)}); return it from "
                "train_step or pass the key holding the loss as loss_key."
            )
        loss = float(logs[key])
        diverged = math.isnan(loss) or (self.detect_inf and math.isinf(loss))
        if _any_worker(self.model, diverged):
            shown = ("NaN" if math.isnan(loss) else str(loss)) if diverged else "NaN (on another worker)"
            message = f"Model diverged with loss = {shown}."
            if self.fail_on_nan_loss:
                self.logger.error(message)
                step = int(self.model.optimizer.iterations.numpy())
                raise NanLossDuringTrainingError(f"{shown} loss during training (global step {step}).")
            self.logger.warning(message)
            self.model.stop_training = True
