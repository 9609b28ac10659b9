"""`StopAtStep`: stop training at a global step, as `tf.compat.v1.train.StopAtStepHook` does.

Replaces `StopAtStepHook(num_steps=None, last_step=None)` (twin:
`legacy/hooks/stop_at_step.py`). The step is `model.optimizer.iterations`,
Keras' global step.

Method mapping: `after_create_session` (fixes ``last_step = start + num_steps``)
→ `on_train_begin`; `after_run` + `request_stop` → `on_train_batch_end`
setting `model.stop_training`.

Semantics kept from TF1:

* `num_steps` is relative to the global step at the start of each `fit`
  (TF1: at session creation), `last_step` is absolute;
* the check runs after a step, so at least one step runs even when the model
  is already at or past `last_step` (TF1 does the same);
* the other callbacks still see the step in which the stop is requested.

Differences: none in the stopping step; Keras still runs `on_epoch_end`
(and validation, if configured) after the stop, TF1 has no epochs. With
``steps_per_execution=N`` the stop can overshoot by up to N-1 steps.

Distributed: TF1 gave `StopAtStepHook` to every worker, each stopping its own session at the shared global step. Under
`MultiWorkerMirroredStrategy` Keras runs this callback on every worker and
does not share `model.stop_training`; a worker stopping alone would leave
the others blocked in the next all-reduce. So the decision is OR-ed over the
workers (`_any_worker`, one all-reduce per step) and every worker stops after
the same step. Under `ParameterServerStrategy` callbacks run on the
coordinator only.

Example::

    model.fit(dataset, epochs=1, steps_per_epoch=10**9, callbacks=[StopAtStep(last_step=2000)])
"""
from __future__ import annotations

import tensorflow as tf
from tensorflow import keras

TF1_EQUIVALENT = {
    "hooks": ["StopAtStepHook"],
    "callback": "StopAtStep",
    "methods": {"after_create_session": "on_train_begin", "after_run": "on_train_batch_end"},
    "differences": [
        "num_steps counts from optimizer.iterations at on_train_begin (TF1: at session creation)",
        "request_stop becomes model.stop_training = True; on_epoch_end still runs",
        "steps_per_execution=N can overshoot the last step by up to N-1",
        "multi-worker: runs on every worker; a stop on any worker stops all after the same step (TF1: each worker's own)",
    ],
}


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


class StopAtStep(keras.callbacks.Callback):
    """Sets `model.stop_training` once `optimizer.iterations >= last_step`.

    Args:
        num_steps: steps to run in each `fit`, counted from its start step.
        last_step: the absolute global step to stop at. Pass exactly one.
    """

    def __init__(self, num_steps: int | None = None, last_step: int | None = None) -> None:
        super().__init__()
        if (num_steps is None) == (last_step is None):
            raise ValueError(
                f"StopAtStep: pass exactly one of num_steps or last_step, got num_steps={num_steps!r}, "
                f"last_step={last_step!r}."
            )
        for name, value in (("num_steps", num_steps), ("last_step", last_step)):
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ValueError(f"StopAtStep: {name} must be a non-negative int, got {value!r}.")
        self.num_steps = num_steps
        self.last_step = last_step

    def on_train_begin(self, logs: dict | None = None) -> None:
        if self.num_steps is not None:
            self.last_step = int(self.model.optimizer.iterations.numpy()) + self.num_steps

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        if _any_worker(self.model, int(self.model.optimizer.iterations.numpy()) >= self.last_step):
            self.model.stop_training = True
