"""`CheckpointSaverHook` with a `CheckpointSaverListener`, as TF1 code hooks into saving.

The hook saves in `after_create_session` (the start step), every
`save_steps` / `save_secs`, and in `end` if the last step was not saved yet.
A listener's `after_save` returning True requests a stop — the TF1 way to
"stop after this checkpoint". With an Estimator, `RunConfig` already makes
one saver hook; pass listeners as `Estimator.train(saving_listeners=[...])`,
or pass your own hook in `hooks` and the Estimator uses it instead.

Twin: `modern/callbacks/checkpoint_saver.py` (`ModelCheckpoint(save_freq=N)`,
which saves neither at step 0 nor at the end).
"""
from __future__ import annotations

from collections.abc import Sequence

import tensorflow as tf


class CheckpointLogListener(tf.compat.v1.train.CheckpointSaverListener):
    """Records the global step of every save; optionally asks to stop once `stop_at_step` is saved.

    Example::

        listener = CheckpointLogListener(stop_at_step=500)
        estimator.train(input_fn, max_steps=10_000, hooks=[init_hook], saving_listeners=[listener])
        listener.saved_steps   # [0, 100, ..., 500]
    """

    def __init__(self, stop_at_step: int | None = None) -> None:
        self.stop_at_step = stop_at_step
        self.saved_steps: list[int] = []
        self.calls: list[tuple[str, int | None]] = []

    def begin(self) -> None:
        """Called in the saver hook's `begin`, while the graph can still change."""
        self.calls.append(("begin", None))

    def before_save(self, session: tf.compat.v1.Session, global_step_value: int) -> None:
        """Called right before each save."""
        self.calls.append(("before_save", int(global_step_value)))

    def after_save(self, session: tf.compat.v1.Session, global_step_value: int) -> bool:
        """Called right after each save; returning True requests a stop."""
        step = int(global_step_value)
        self.calls.append(("after_save", step))
        self.saved_steps.append(step)
        return self.stop_at_step is not None and step >= self.stop_at_step

    def end(self, session: tf.compat.v1.Session, global_step_value: int) -> None:
        """Called in the saver hook's `end`, after the final save."""
        self.calls.append(("end", int(global_step_value)))


def make_checkpoint_saver_hook(
    checkpoint_dir: str,
    save_steps: int | None = None,
    save_secs: float | None = None,
    listeners: Sequence[tf.compat.v1.train.CheckpointSaverListener] = (),
    checkpoint_basename: str = "model.ckpt",
) -> tf.compat.v1.train.CheckpointSaverHook:
    """Save to `checkpoint_dir` every `save_steps` steps or `save_secs` seconds (exactly one)."""
    return tf.compat.v1.train.CheckpointSaverHook(
        checkpoint_dir,
        save_secs=save_secs,
        save_steps=save_steps,
        checkpoint_basename=checkpoint_basename,
        listeners=list(listeners),
    )
