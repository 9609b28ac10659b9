"""`InMemoryEvaluator`: evaluate during training every N steps, at the start and at the end, as `InMemoryEvaluatorHook` does.

Replaces `tf.estimator.experimental.InMemoryEvaluatorHook(estimator, input_fn,
steps=None, hooks=None, name=None, every_n_iter=100)` (twin:
`legacy/hooks/in_memory_evaluator.py`), which evaluated the variables of the
running training session without writing a checkpoint. Keras' own
``fit(validation_data=..., validation_freq=...)`` evaluates only at epoch
ends; this evaluates on TF1's step schedule within an epoch.

Method mapping: `begin` → `on_train_begin`; `after_create_session` (evaluate
before the first step) → `on_train_begin`; `after_run` (evaluate every
`every_n_iter` iterations of this `fit`) → `on_train_batch_end`; `end`
(evaluate the final model, even if it was just evaluated) → `on_train_end`.

Semantics kept from TF1: evaluations at the start step, after every
`every_n_iter` steps counted from the start of each `fit` (not the global
step), and at the end; each runs `steps` batches (None: the whole dataset)
and is logged as "Saving dict for global step N: ..." and, with
`output_dir`, written as scalar summaries at the global step, which is what
TF1 wrote to ``<model_dir>/eval[_<name>]``.

Differences:

* `model.evaluate` on the live model instead of copying variables into an
  eval graph; `callbacks` replaces the hook's `hooks`;
* Keras shares its metric objects between training and evaluation, so an
  evaluation in the middle of an epoch would reset the training running
  means (``logs["loss"]``), and Keras 2's `evaluate` replaces
  `model.history` (what `fit` returns); both are saved before and restored
  after each evaluation, so training logs are the same as without it;
* results are kept in `results` as ``(global_step, {metric: value})``; to
  stop on them, give them to `EarlyStopping.record(step, value)`.

Distributed: TF1's hook refused a cluster ("InMemoryEvaluator supports only
single machine"). Under `MultiWorkerMirroredStrategy` `evaluate` is a
collective, so every worker evaluates at the same steps and keeps the same
`results`; only the chief (`strategy.extended.should_save_summary`) logs
them and writes `output_dir`: one set of eval summaries. TF1's separate
evaluator task has its twin in `modern/distributed/sidecar.py`.

Example::

    evaluator = InMemoryEvaluator(eval_dataset, every_n_iter=1000, output_dir="runs/eval")
    model.fit(train_dataset, steps_per_epoch=10_000, callbacks=[evaluator])
"""
from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

import tensorflow as tf
from tensorflow import keras

TF1_EQUIVALENT = {
    "hooks": ["InMemoryEvaluatorHook"],
    "callback": "InMemoryEvaluator",
    "methods": {
        "begin": "on_train_begin",
        "after_create_session": "on_train_begin",
        "after_run": "on_train_batch_end",
        "end": "on_train_end",
    },
    "differences": [
        "model.evaluate on the live model, not variables copied into an eval graph; callbacks instead of hooks",
        "training running means and model.history are saved and restored around each evaluation",
        "results kept as (global_step, metrics) in .results; output_dir gets the eval summaries",
        "on a cluster, as TF1's separate evaluator task: modern/distributed/sidecar.py evaluates the chief's checkpoints",
        "multi-worker: every worker evaluates (a collective); the chief alone logs and writes (TF1: single machine only)",
    ],
}


def write_scalar(tag: str, value: float, step: int) -> None:
    """`tf.summary.scalar` without the `tensorboard` package (TF 2.16+ no longer requires it)."""
    metadata = tf.compat.v1.SummaryMetadata()
    metadata.plugin_data.plugin_name = "scalars"
    tf.summary.write(tag, tf.constant(float(value), tf.float32), step=step, metadata=metadata)


def _is_chief(model: keras.Model) -> bool:
    """True without a strategy and on the chief; False on the other workers of a multi-worker strategy."""
    strategy = getattr(model, "distribute_strategy", None)
    return strategy is None or strategy.extended.should_save_summary


class InMemoryEvaluator(keras.callbacks.Callback):
    """Evaluates `data` at the start, every `every_n_iter` steps of each `fit`, and at the end.

    Args:
        data: what `model.evaluate` takes (a dataset, or ``(x, y)`` arrays).
        steps: batches per evaluation (None: the whole dataset).
        every_n_iter: evaluate after every N training steps of this `fit`.
        output_dir: write each result as scalar summaries there (optional).
        callbacks: given to `model.evaluate` (TF1: the hook's `hooks`).
        batch_size: for array `data` (ignored for datasets).
        logger: default: the "tensorflow" logger, where TF1 logged.
    """

    def __init__(
        self,
        data: Any,
        steps: int | None = None,
        every_n_iter: int = 100,
        output_dir: str | os.PathLike | None = None,
        callbacks: Sequence[keras.callbacks.Callback] = (),
        batch_size: int | None = None,
        logger: logging.Logger | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(every_n_iter, int) or every_n_iter <= 0:
            raise ValueError(f"InMemoryEvaluator: every_n_iter must be a positive int, got {every_n_iter!r}.")
        self.data = data
        self.steps = steps
        self.every_n_iter = every_n_iter
        self.output_dir = None if output_dir is None else os.fspath(output_dir)
        self.callbacks = list(callbacks)
        self.batch_size = batch_size
        self.logger = logger or logging.getLogger("tensorflow")
        self.results: list[tuple[int, dict[str, float]]] = []
        self._writer = None
        self._iter_count = 0
        self._last_evaluated_iter = 0

    def _evaluate(self) -> None:
        saved = [[variable.numpy() for variable in metric.variables] for metric in self.model.metrics]
        history = getattr(self.model, "history", None)
        if isinstance(self.data, tuple):
            x, y = self.data
            values = self.model.evaluate(
                x, y, batch_size=self.batch_size, steps=self.steps, callbacks=self.callbacks, verbose=0,
                return_dict=True,
            )
        else:
            values = self.model.evaluate(self.data, steps=self.steps, callbacks=self.callbacks, verbose=0, return_dict=True)
        for metric, state in zip(self.model.metrics, saved):
            for variable, value in zip(metric.variables, state):
                variable.assign(value)
        self.model.history = history
        step = int(self.model.optimizer.iterations.numpy())
        results = {key: float(value) for key, value in values.items()}
        self.results.append((step, results))
        self._last_evaluated_iter = self._iter_count
        if not _is_chief(self.model):
            return
        self.logger.info(
            "Saving dict for global step %d: %s", step, ", ".join(f"{key} = {value:g}" for key, value in sorted(results.items()))
        )
        if self._writer is not None:
            with self._writer.as_default():
                for key, value in results.items():
                    write_scalar(key, value, step)
                self._writer.flush()

    def on_train_begin(self, logs: dict | None = None) -> None:
        if self.output_dir is not None and self._writer is None and _is_chief(self.model):
            self._writer = tf.summary.create_file_writer(self.output_dir)
        self._iter_count = 0
        self._evaluate()

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._iter_count += 1
        if self._iter_count >= self._last_evaluated_iter + self.every_n_iter:
            self._evaluate()

    def on_train_end(self, logs: dict | None = None) -> None:
        self._evaluate()

