"""One `MultiWorkerMirroredStrategy` worker that runs a `fit` per stopping callback, the stop firing on worker 1 only.

Run by `test_stops.py` as ``python stopping_worker.py OUT.json`` with
``TF_CONFIG`` set, once per worker. Each scenario trains the MNIST conv net of
`modern.model` (its loss all-reduced as `modern.distributed.pair` reports it) on random batches from the global step it starts at, with
a condition that holds on worker 1 only, ``AFTER`` steps in; the result is the
number of steps each fit trained (and whether `NanTensor` raised), per
scenario. Without agreement across workers the other worker would block in
the next step's all-reduce and the launcher's timeout would end the test.
"""
from __future__ import annotations

import json
import math
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow import keras

from modern.callbacks import (
    EarlyStopping,
    NanLossDuringTrainingError,
    NanTensor,
    StopAtStep,
    StopOnCondition,
)
from modern.distributed.pair import report_global_step_loss
from modern.distributed.stop_together import StopTogether
from modern.model import build_model

AFTER = 3
MAX_STEPS = 12


class WorkerLoss(keras.callbacks.Callback):
    """A per-worker value in the logs (``worker_loss``): the step loss, NaN on worker 1 `AFTER` steps in."""

    def __init__(self, worker: int, first: int) -> None:
        super().__init__()
        self.worker, self.first = worker, first

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        step = int(self.model.optimizer.iterations.numpy())
        nan = self.worker == 1 and step >= self.first + AFTER
        logs["worker_loss"] = math.nan if nan else float(np.asarray(logs["step_loss"]).reshape(-1)[0])


class UserStop(keras.callbacks.Callback):
    """A user's own callback: ``model.stop_training = True`` on worker 1 `AFTER` steps in."""

    def __init__(self, worker: int, first: int) -> None:
        super().__init__()
        self.worker, self.first = worker, first

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        if self.worker == 1 and int(self.model.optimizer.iterations.numpy()) >= self.first + AFTER:
            self.model.stop_training = True


class ValLoss(keras.callbacks.Callback):
    """A per-worker evaluation result at each epoch end (``val_loss``): it stops improving on worker 1 only."""

    def __init__(self, worker: int) -> None:
        super().__init__()
        self.worker = worker

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        logs["val_loss"] = 1.0 if self.worker == 1 else 1.0 / (epoch + 1)


def scenarios(worker: int, first: int) -> dict[str, tuple[list[keras.callbacks.Callback], int]]:
    """Name → (callbacks, steps_per_epoch): each stops AFTER steps (or epochs of one step) in, on worker 1 only."""
    return {
        "StopAtStep": ([StopAtStep(last_step=first + (AFTER if worker == 1 else MAX_STEPS + 1))], MAX_STEPS),
        "StopOnCondition": ([StopOnCondition(lambda step, loss: worker == 1 and step >= first + AFTER)], MAX_STEPS),
        "NanTensor(fail_on_nan_loss=False)": (
            [WorkerLoss(worker, first), NanTensor(loss_key="worker_loss", fail_on_nan_loss=False)], MAX_STEPS),
        "NanTensor": ([WorkerLoss(worker, first), NanTensor(loss_key="worker_loss")], MAX_STEPS),
        "EarlyStopping": ([ValLoss(worker), EarlyStopping(max_steps_without_improvement=AFTER - 1)], 1),
        "user stop + StopTogether": ([UserStop(worker, first), StopTogether()], MAX_STEPS),
    }


def main(out: str) -> int:
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    worker = strategy.cluster_resolver.task_id
    with strategy.scope():
        model = build_model({"learning_rate": 0.01, "optimizer": "sgd", "dropout_rate": 0.0}, optimizer_flavour="native")
    report_global_step_loss(model)  # every worker logs the same all-reduced loss, on Keras 2.15 and Keras 3
    model._maybe_symbolic_build = lambda *args, **kwargs: None  # built already; Keras 3 would reduce a batch
    rng = np.random.default_rng(worker)
    images = rng.integers(0, 255, (8, 28, 28, 1)).astype(np.float32)
    labels = rng.integers(0, 10, 8).astype(np.float32)

    def dataset(context: tf.distribute.InputContext) -> tf.data.Dataset:
        options = tf.data.Options()
        options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
        return tf.data.Dataset.from_tensors((images, labels)).repeat().with_options(options)

    data = strategy.distribute_datasets_from_function(dataset)
    results = {}
    names = list(scenarios(worker, 0))
    for name in names:
        first = int(model.optimizer.iterations.numpy())
        callbacks, steps_per_epoch = scenarios(worker, first)[name]
        raised = False
        try:
            model.fit(data, epochs=MAX_STEPS // steps_per_epoch, steps_per_epoch=steps_per_epoch, verbose=0,
                      callbacks=callbacks)
        except NanLossDuringTrainingError:
            raised = True
        results[name] = {"steps": int(model.optimizer.iterations.numpy()) - first, "raised": raised}
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({"worker": worker, "pid": os.getpid(), "results": results}, handle)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
