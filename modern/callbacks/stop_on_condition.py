"""`StopOnCondition`: stop training when a condition on (step, loss) holds.

Replaces the custom `StopOnConditionHook` (twin:
`legacy/hooks/stop_on_condition.py`) and, more generally, any hook that calls
`run_context.request_stop()` on a condition — including the Estimator's
`make_early_stopping_hook(estimator, should_stop_fn)` and the threshold hooks
`stop_if_higher_hook` / `stop_if_lower_hook`.

Method mapping: `after_run` → `on_train_batch_end`;
`run_context.request_stop()` → `model.stop_training = True`.

Semantics kept from TF1: the condition is evaluated after every step with the
completed global step and that step's loss; when it holds, the stop happens
after this step, and every callback still sees this step (put an
`EventRecorder` after this callback to record the request).

Differences:

* the loss is ``logs["step_loss"]`` when the train step reports it (as
  `modern.model` does); on a stock compiled model it is recovered from
  Keras' running mean ``logs["loss"]`` by `_StepLoss` (below), so the
  condition sees each step's own loss as in TF1;
* `make_early_stopping_hook` checks every `run_every_secs` (60 by default)
  and its `should_stop_fn` takes no arguments: pass
  ``lambda step, loss: should_stop_fn()`` and `run_every_steps`;
* training only: Keras 2.15 cannot stop `evaluate`/`predict` (Keras 3 has
  `stop_evaluating`/`stop_predicting`).

Distributed: TF1's hook stopped the session of the worker it ran on (every worker it was given to). Under
`MultiWorkerMirroredStrategy` Keras runs this callback on every worker and
does not share `model.stop_training`; a worker stopping alone would leave
the others blocked in the next all-reduce. So the condition's result is OR-ed over the
workers (`_any_worker`, one all-reduce per check) and every worker stops after
the same step. Under `ParameterServerStrategy` callbacks run on the
coordinator only.

Example::

    StopOnCondition(lambda step, loss: loss < 0.05 or step >= 1000)
"""
from __future__ import annotations

from collections.abc import Callable

import tensorflow as tf
from tensorflow import keras

TF1_EQUIVALENT = {
    "hooks": ["StopOnConditionHook", "make_early_stopping_hook", "stop_if_higher_hook", "stop_if_lower_hook"],
    "callback": "StopOnCondition",
    "methods": {"after_run": "on_train_batch_end", "request_stop": "model.stop_training = True"},
    "differences": [
        "the loss is the step's own: logs['step_loss'], or on a stock model recovered from the running mean",
        "make_early_stopping_hook's should_stop_fn takes no arguments and runs every 60 s by default; wrap it",
        "training only (Keras 2.15 cannot stop evaluate/predict)",
        "multi-worker: runs on every worker; a condition true on any worker stops all after the same step",
    ],
}

StopCondition = Callable[[int, float | None], bool]

class _StepLoss:
    """The loss of the step that just ran, also on a stock compiled model.

    A train step of your own can report it as ``logs[key]``, which is used
    as is. A stock model reports only ``logs["loss"]``, the mean over the
    epoch so far weighted by batch size. Its loss tracker (the metric named
    "loss" in `model.metrics`) holds that mean's ``total`` and ``count``, so
    their change since the previous batch is this step's loss: exact up to
    float32 rounding, right for a short last batch, NaN from the first NaN
    step on. Keras resets the tracker when an epoch starts (the batch index
    restarts); call this at every batch end so no step is skipped. With
    ``steps_per_execution=N`` it is the mean loss of those N steps. Copied
    unchanged into each callback file that needs it, so each file stands alone.
    """

    def __init__(self, key: str = "step_loss") -> None:
        self.key = key
        self._model = None
        self._tracker = None
        self._previous = (0.0, 0.0)
        self._previous_batch = -1

    def __call__(self, model: keras.Model, batch: int, logs: dict) -> float | None:
        """This step's loss, or None if neither the logs nor a loss tracker give it."""
        if self.key in logs:
            return float(logs[self.key])
        if model is not self._model:
            self._model, self._previous_batch = model, -1
            self._tracker = next(
                (metric for metric in model.metrics if metric.name == "loss" and hasattr(metric, "count")), None
            )
        if batch <= self._previous_batch:
            self._previous = (0.0, 0.0)
        self._previous_batch = batch
        if self._tracker is None:
            return None
        total, count = float(self._tracker.total.numpy()), float(self._tracker.count.numpy())
        (previous_total, previous_count), self._previous = self._previous, (total, count)
        if count <= previous_count:
            return None
        return (total - previous_total) / (count - previous_count)


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


class StopOnCondition(keras.callbacks.Callback):
    """Calls ``should_stop(step, loss)`` after each step (every `run_every_steps`) and stops when True.

    Args:
        should_stop: gets the completed global step and its loss.
        run_every_steps: check only every N global steps (1: every step).
        loss_key: the log key with the step's loss, if the train step reports
            it; otherwise the loss is recovered from ``logs["loss"]``.
    """

    def __init__(self, should_stop: StopCondition, run_every_steps: int = 1, loss_key: str = "step_loss") -> None:
        super().__init__()
        if not callable(should_stop):
            raise TypeError(f"StopOnCondition: should_stop must be callable, got {should_stop!r}.")
        if run_every_steps < 1:
            raise ValueError(f"StopOnCondition: run_every_steps must be >= 1, got {run_every_steps!r}.")
        self.should_stop = should_stop
        self.run_every_steps = run_every_steps
        self.loss_key = loss_key
        self._step_loss = _StepLoss(loss_key)
        self.stopped_at: int | None = None
        self._last_checked: int | None = None

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._last_checked = None
        self.stopped_at = None

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        loss = self._step_loss(self.model, batch, logs or {})
        step = int(self.model.optimizer.iterations.numpy())
        if self._last_checked is not None and step < self._last_checked + self.run_every_steps:
            return
        self._last_checked = step
        if _any_worker(self.model, bool(self.should_stop(step, loss))):
            self.stopped_at = step
            self.model.stop_training = True
