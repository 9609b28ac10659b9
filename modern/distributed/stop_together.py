"""`StopTogether`: a stop any worker's callbacks request (``model.stop_training``) stops every worker.

No TF1 twin: in TF1 a hook's `run_context.request_stop()` ended only its own
worker's `MonitoredTrainingSession`, and a chief-only hook stopped only the
chief. Under `MultiWorkerMirroredStrategy` Keras runs every callback on every
worker and does not share `model.stop_training`: a worker that leaves `fit`
alone leaves the others blocked in the next step's all-reduce. This callback,
put LAST in the list, all-reduces the flag after every step and every epoch,
so a stop requested by any callback on any worker — a user's own
``self.model.stop_training = True``, Keras' `EarlyStopping` or
`TerminateOnNaN` — stops all workers after the same step.

The stopping callbacks of `modern/callbacks/` (`StopAtStep`,
`StopOnCondition`, `NanTensor`, `EarlyStopping`, a `CheckpointSaver`
listener) already agree on their own decisions across workers; this one is
for the others. It costs one all-reduce per step (6–10 ms measured between
two local processes on a loaded 2-core machine), so add it only when such a
stop can happen. Without a multi-worker strategy it does nothing (no
collective), so the same callback list runs on one process. It lives here,
not in `modern/callbacks/` (one file per TF1 hook), and votes with the
`_any_worker` of `modern/callbacks/stop_on_condition.py` (each stopping
callback file carries its own copy, so it can be copied alone): copy that
file with this one.

Example::

    model.fit(dataset, epochs=10, callbacks=[MyCallback(), keras.callbacks.EarlyStopping(), StopTogether()])
"""
from __future__ import annotations

from tensorflow import keras

from modern.callbacks.stop_on_condition import _any_worker


class StopTogether(keras.callbacks.Callback):
    """After every step and epoch, sets ``model.stop_training`` on every worker if any worker set it; put it last.

    After training, `stopped_at` is the global step after which the workers stopped (None if none did).
    """

    def __init__(self) -> None:
        super().__init__()
        self.stopped_at: int | None = None

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.stopped_at = None

    def _agree(self) -> None:
        if _any_worker(self.model, bool(self.model.stop_training)):
            self.model.stop_training = True
            if self.stopped_at is None:
                self.stopped_at = int(self.model.optimizer.iterations.numpy())

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._agree()

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self._agree()
