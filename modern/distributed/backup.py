"""Keras' `BackupAndRestore` for a `MultiWorkerMirroredStrategy` worker, the way each Keras version needs it.

The TF2 answer to a worker killed in the middle of a run (TF1: the chief's
`MonitoredTrainingSession` restoring the newest checkpoint of its model dir)
is `keras.callbacks.BackupAndRestore`: it backs the training state up every
``save_freq`` and, when the cluster is started again, restores it in
`on_train_begin`, before the first step. What it keeps differs by version
(read in each version's sources):

* Keras 2.15 (`keras/src/callbacks.py`, `distribute/worker_training_state.py`)
  checkpoints the model (with its optimizer, so ``optimizer.iterations``, the
  global step) and the epoch and batch it saved at; with an integer
  ``save_freq`` `fit` resumes in the middle of an epoch, at the batch after
  the saved one. The chief writes ``<backup_dir>/chief``; every other worker
  writes the same save into ``<backup_dir>/workertemp_<id>`` and deletes it
  (the save is a collective); every worker restores from ``chief``.
* Keras 3 (`keras/src/callbacks/backup_and_restore.py`) saves
  ``latest.weights.h5`` (model and optimizer) and ``training_metadata.json``
  with the epoch and batch, but restores only the epoch: a backup taken in the
  middle of an epoch would be resumed at that epoch's first batch with the
  weights of its middle. So on Keras 3 the run is cut into epochs of
  ``save_steps`` steps and the backup is taken at each epoch's end. Keras 3
  also writes the same files from every worker; `ChiefBackupAndRestore`
  below gives it Keras 2.15's rule (the chief writes, the others write into a
  temporary directory and delete it, every worker restores the chief's
  backup), so two processes never write one file.

Neither version moves the input pipeline: Keras 2.15 starts the resumed
epoch's iterator at its first element, Keras 3 continues one iterator. The
worker's dataset is therefore indexed by the global step it reads when its
iterator is created, after the restore (`modern.distributed.pair`), and a
`StopAtStep` ends the run at the target step whatever the epoch count.

Both versions delete the backup directory at the end of a completed `fit`.
"""
from __future__ import annotations

import math
import os
import shutil
from pathlib import Path
from typing import Any

import keras

BACKUP_DIRNAME = "backup"


def keras_major(version: str = keras.__version__) -> int:
    """The major version of a Keras this module has a plan for (2: Keras 2.15, 3); a clear error for another."""
    major = int(version.split(".")[0])
    if major not in (2, 3):
        raise ValueError(f"modern.distributed.backup: no BackupAndRestore plan for Keras {version}; known majors: [2, 3].")
    return major


def fit_layout(steps: int, save_steps: int, major: int) -> tuple[int, int]:
    """(epochs, steps_per_epoch) that Keras `major` resumes correctly: fixed by the target step alone, so a
    restarted cluster calls `fit` the same way (Keras 2.15: one epoch; Keras 3: epochs of `save_steps` steps)."""
    return (1, steps) if major == 2 else (math.ceil(steps / save_steps), save_steps)


def backup_callback(backup_dir: Path, save_steps: int, major: int) -> Any:
    """Keras 2.15's own `BackupAndRestore` every `save_steps` steps, or Keras 3's at each epoch's end with the chief
    writing (`ChiefBackupAndRestore`)."""
    if major == 2:
        return keras.callbacks.BackupAndRestore(str(backup_dir), save_freq=save_steps)
    return ChiefBackupAndRestore(str(backup_dir))


def backup_exists(backup_dir: Path, major: int) -> bool:
    """Whether the chief's backup is there to restore (a restarted cluster resumes from it)."""
    return (backup_dir / ("chief/checkpoint" if major == 2 else "training_metadata.json")).exists()


class ChiefBackupAndRestore(keras.callbacks.BackupAndRestore):
    """Keras 3's `BackupAndRestore` (``save_freq="epoch"``) with Keras 2.15's multi-worker file rule.

    Every worker restores ``backup_dir`` (the chief's) in `on_train_begin`;
    then a non-chief worker points its saves at the sibling directory
    ``<backup_dir>_workertemp_<task_type>_<task_id>``, deletes it after each
    save and leaves the chief's backup alone at the end. The temp dir is not
    inside ``backup_dir``: the chief deletes that at the end of `fit`, while
    another worker may still be writing its last save. Keras 3 only (it sets
    the private paths of Keras 3's callback); Keras 2.15's own callback already
    behaves so.
    """

    def __init__(self, backup_dir: str) -> None:
        super().__init__(backup_dir, save_freq="epoch", double_checkpoint=True)
        self.backup_dir: str = backup_dir  # Keras' own attribute, typed here (its class is `Any` to mypy)
        self._temp_dir: str | None = None

    def on_train_begin(self, logs: dict | None = None) -> None:
        super().on_train_begin(logs)
        strategy = getattr(self.model, "distribute_strategy", None)
        if strategy is None or strategy.extended.should_checkpoint:
            return
        resolver = strategy.cluster_resolver
        self._temp_dir = f"{os.path.normpath(self.backup_dir)}_workertemp_{resolver.task_type}_{resolver.task_id}"
        self.backup_dir = self._temp_dir  # Keras 3 creates backup_dir before each save
        self._weights_path = os.path.join(self._temp_dir, "latest.weights.h5")
        self._training_metadata_path = os.path.join(self._temp_dir, "training_metadata.json")
        self._prev_weights_path = f"{self._weights_path}.bkp"
        self._prev_training_metadata_path = f"{self._training_metadata_path}.bkp"

    def _save_model(self) -> None:
        super()._save_model()  # on every worker: reading sync-on-read variables is a collective
        if self._temp_dir is not None:
            shutil.rmtree(self._temp_dir, ignore_errors=True)

    def on_train_end(self, logs: dict | None = None) -> None:
        if self._temp_dir is None:
            super().on_train_end(logs)
