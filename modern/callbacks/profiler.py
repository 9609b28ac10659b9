"""`Profiler`: trace a range of global steps with the TF2 profiler.

Replaces `tf.compat.v1.train.ProfilerHook(save_steps=None, save_secs=None,
output_dir="", show_dataflow=True, show_memory=False)` (twin:
`legacy/hooks/profiler.py`), which ran one step every N with
``RunOptions(trace_level=FULL_TRACE)`` and wrote ``timeline-<step>.json``.

Method mapping: `before_run` (turn tracing on) → `on_train_batch_begin`;
`after_run` (write the trace) → `on_train_batch_end`; `end` →
`on_train_end` (stops a trace still running).

Semantics: steps `start_step` … `stop_step` (global steps, inclusive) are
traced with `tf.profiler.experimental.start/stop` into `logdir`.

Differences: one TensorBoard profile (``plugins/profile/<run>/*.xplane.pb``,
open with TensorBoard's Profile tab) for a contiguous step range instead of a
Chrome trace every N steps; Keras' stock form is
`TensorBoard(profile_batch=(a, b))`, whose batches restart every epoch.
Only one profiler can run per process.

Distributed: like TF1's hook on every worker it was given to, it runs on every
worker and traces that process; the profile files are named after the host,
so give each worker its own `logdir` when they share a machine.
"""
from __future__ import annotations

import os

import tensorflow as tf
from tensorflow import keras

TF1_EQUIVALENT = {
    "hooks": ["ProfilerHook"],
    "callback": "Profiler",
    "methods": {"before_run": "on_train_batch_begin", "after_run": "on_train_batch_end", "end": "on_train_end"},
    "differences": [
        "one TensorBoard profile (xplane.pb) for a global-step range, not timeline-<step>.json every N steps",
        "Keras' TensorBoard(profile_batch=(a, b)) counts batches within an epoch",
        "only one profiler can run per process",
        "multi-worker: every worker profiles itself into logdir (TF1: every worker it was given to); one logdir per worker",
    ],
}


class Profiler(keras.callbacks.Callback):
    """Profiles global steps `start_step`..`stop_step` into `logdir`.

    Args:
        logdir: the TensorBoard log directory.
        start_step / stop_step: first and last global step traced (inclusive).
    """

    def __init__(self, logdir: str | os.PathLike, start_step: int, stop_step: int) -> None:
        super().__init__()
        if not 1 <= start_step <= stop_step:
            raise ValueError(
                f"Profiler: need 1 <= start_step <= stop_step (global steps), got {start_step!r}..{stop_step!r}."
            )
        self.logdir = os.fspath(logdir)
        self.start_step = start_step
        self.stop_step = stop_step
        self.traced_steps: list[int] = []
        self._active = False

    def _stop(self) -> None:
        tf.profiler.experimental.stop()
        self._active = False

    def on_train_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        step = int(self.model.optimizer.iterations.numpy()) + 1
        if not self._active and self.start_step <= step <= self.stop_step and not self.traced_steps:
            tf.profiler.experimental.start(self.logdir)
            self._active = True

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        if not self._active:
            return
        step = int(self.model.optimizer.iterations.numpy())
        self.traced_steps.append(step)
        if step >= self.stop_step:
            self._stop()

    def on_train_end(self, logs: dict | None = None) -> None:
        if self._active:
            self._stop()
