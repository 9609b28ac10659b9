"""`EventRecorder`: write down the training loop's calls in the SessionRunHook event vocabulary.

Replaces the TF1 `EventRecorderHook` (twin: `legacy/hooks/event_recorder.py`);
both produce the same list of events, so a TF1 run and its Keras rebuild can
be compared line by line (`migrate.core.protocol.expected_events` documents the
sequence).

Method mapping (per phase: fit → "train", evaluate → "evaluate", predict → "predict"):

* `on_*_begin` → ``begin`` then ``after_create_session`` (the model and the
  optimizer exist; step = `optimizer.iterations` in training, 0 otherwise);
* `on_*_batch_begin` → ``before_run`` with the step that batch will complete;
* `on_*_batch_end` → ``after_run`` (training: the global step from
  ``logs["global_step"]`` or `optimizer.iterations`, and the loss of that
  very step: ``logs["step_loss"]`` when the train step reports it, otherwise
  recovered from Keras' running mean by `_StepLoss`, so a stock compiled
  model records the same losses as TF1);
* `model.stop_training` (evaluate: `stop_evaluating`, predict:
  `stop_predicting`, Keras 3 only) seen true at batch end (or epoch end) →
  ``request_stop`` with the last completed step;
* `on_*_end` → ``end`` with the last completed step.

Differences from TF1:

* put the recorder LAST in the callback list: it sees a stop only when an
  earlier callback set `model.stop_training` (TF1 ORs the requests after all
  hooks ran; Keras callbacks see each other's flags in list order);
* when the data runs out (unknown cardinality, e.g. `from_generator`), Keras
  calls batch begin for the failed step but not batch end, then `on_*_end`,
  exactly like TF1's OutOfRange handling;
* a stop requested in `on_epoch_end` (e.g. `EarlyStopping`) is recorded there;
  TF1 hooks can only request stops in `after_run`;
* there is no session to recreate, so ``after_create_session`` happens once
  per `fit`/`evaluate`/`predict` call.

Example::

    recorder = EventRecorder()
    model.fit(dataset, steps_per_epoch=100, callbacks=[*others, recorder])
    recorder.save("train-events.json")
"""
from __future__ import annotations

import json
import os
from typing import Any

from tensorflow import keras

TF1_EQUIVALENT = {
    "hooks": ["EventRecorderHook"],
    "callback": "EventRecorder",
    "methods": {
        "begin": "on_train_begin",
        "after_create_session": "on_train_begin",
        "before_run": "on_train_batch_begin",
        "after_run": "on_train_batch_end",
        "request_stop": "model.stop_training seen at on_train_batch_end",
        "end": "on_train_end",
    },
    "differences": [
        "must be last in the callback list to see stops requested by other callbacks",
        "the step loss is logs['step_loss'] or, on a stock model, recovered from the running mean logs['loss']",
        "evaluate/predict are recorded through on_test_*/on_predict_* with 1-based batch steps",
        "stops requested in on_epoch_end are recorded there",
        "multi-worker: records on every worker, each its own events (TF1: on every worker it was given to)",
    ],
}

STOP_FLAGS = {"train": "stop_training", "evaluate": "stop_evaluating", "predict": "stop_predicting"}

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


class EventRecorder(keras.callbacks.Callback):
    """Records ``{"phase", "event", "step"[, "loss"]}`` dicts in `self.events`.

    Args:
        loss_key: the log key holding the loss of the step, if the train step
            reports it (`modern.model` does); otherwise it is recovered from
            ``logs["loss"]`` (see `_StepLoss`).
    """

    def __init__(self, loss_key: str = "step_loss") -> None:
        super().__init__()
        self.loss_key = loss_key
        self._step_loss = _StepLoss(loss_key)
        self.events: list[dict[str, Any]] = []
        self._step = {"train": 0, "evaluate": 0, "predict": 0}
        self._stop_recorded = {"train": False, "evaluate": False, "predict": False}

    def _record(self, phase: str, event: str, step: int | None = None, loss: float | None = None) -> None:
        record: dict[str, Any] = {"phase": phase, "event": event, "step": step}
        if loss is not None:
            record["loss"] = float(loss)
        self.events.append(record)

    def _iterations(self) -> int:
        return int(self.model.optimizer.iterations.numpy())

    def _begin(self, phase: str, step: int) -> None:
        self._step[phase] = step
        self._stop_recorded[phase] = False
        self._record(phase, "begin")
        self._record(phase, "after_create_session", step)

    def _check_stop(self, phase: str) -> None:
        if getattr(self.model, STOP_FLAGS[phase], False) and not self._stop_recorded[phase]:
            self._stop_recorded[phase] = True
            self._record(phase, "request_stop", self._step[phase])

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._begin("train", self._iterations())

    def on_train_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        self._record("train", "before_run", self._step["train"] + 1)

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        logs = logs or {}
        if "global_step" in logs:
            self._step["train"] = int(round(float(logs["global_step"])))
        else:
            self._step["train"] = self._iterations()
        self._record("train", "after_run", self._step["train"], self._step_loss(self.model, batch, logs))
        self._check_stop("train")

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self._check_stop("train")

    def on_train_end(self, logs: dict | None = None) -> None:
        self._record("train", "end", self._step["train"])

    def on_test_begin(self, logs: dict | None = None) -> None:
        self._begin("evaluate", 0)

    def on_test_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        self._record("evaluate", "before_run", self._step["evaluate"] + 1)

    def on_test_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._step["evaluate"] += 1
        self._record("evaluate", "after_run", self._step["evaluate"])
        self._check_stop("evaluate")

    def on_test_end(self, logs: dict | None = None) -> None:
        self._record("evaluate", "end", self._step["evaluate"])

    def on_predict_begin(self, logs: dict | None = None) -> None:
        self._begin("predict", 0)

    def on_predict_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        self._record("predict", "before_run", self._step["predict"] + 1)

    def on_predict_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._step["predict"] += 1
        self._record("predict", "after_run", self._step["predict"])
        self._check_stop("predict")

    def on_predict_end(self, logs: dict | None = None) -> None:
        self._record("predict", "end", self._step["predict"])

    def save(self, path: str | os.PathLike) -> None:
        """Write the events as a JSON list (the format `legacy` writes too)."""
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(self.events, handle, indent=1)
