"""`CheckpointInputPipelineHook` → no callback: resume the data stream by skipping, or checkpoint the iterator in a custom loop.

`tf.data.experimental.CheckpointInputPipelineHook(estimator)` saved the state
of the Estimator's input iterator (position, shuffle buffer, ...) next to
every model checkpoint and restored it at session creation, so a restarted
job continued the data stream where it stopped. Keras `fit` creates its
iterator inside the loop, out of reach of a checkpoint, so no callback can
do this.

What to do instead:

* with `fit`: make the input deterministic (a seeded shuffle per epoch) and,
  on resume, skip the batches already trained on, e.g.
  ``dataset.skip(global_step % steps_per_epoch)`` for the current epoch
  (`modern.pipeline.train_dataset(..., start_batch=global_step)` resumes the
  MNIST stream this way);
  `keras.callbacks.BackupAndRestore(save_freq=N)` restores the model and the
  epoch/step counters, not the iterator; it restores inside `fit`, so the
  step to start from is known only in `on_train_begin`: a generator-fed
  dataset that reads a value a callback sets there starts at the restored
  step (`modern/distributed/worker.py`'s `worker_dataset`; reading
  ``optimizer.iterations`` from the generator itself raced with the first
  step);
* in a custom training loop: ``iterator = iter(dataset)`` and
  ``tf.train.Checkpoint(model=model, optimizer=optimizer, iterator=iterator)``
  save and restore the iterator itself, like the hook did (shuffle buffers
  included, which can make checkpoints large).

Method mapping: `begin`/`after_create_session` (restore the iterator) and the
`CheckpointSaverHook` listener (save it) → none.

Differences: skipping replays the deterministic order instead of restoring a
saved state; a non-deterministic pipeline (unseeded shuffle, parallel
interleave without ``deterministic=True``) resumes with different batches.
"""
from __future__ import annotations

TF1_EQUIVALENT = {
    "hooks": ["CheckpointInputPipelineHook"],
    "callback": None,
    "methods": {
        "after_create_session": "none: fit's iterator cannot be checkpointed; skip consumed batches on resume",
        "before_run": "none: tf.train.Checkpoint(iterator=iter(dataset)) in a custom loop",
    },
    "differences": [
        "no callback: with fit, resume a deterministic dataset with dataset.skip(global_step % steps_per_epoch)",
        "in a custom loop, tf.train.Checkpoint(model=..., optimizer=..., iterator=iterator) saves the iterator state",
        "BackupAndRestore restores the model and counters, not the data position",
    ],
}
