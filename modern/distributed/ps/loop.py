"""A `ClusterCoordinator` training loop that drives Keras callbacks: asynchronous parameter-server training.

Use it when TF1 code trained asynchronously on a ps cluster
(`MonitoredTrainingSession(master=..., is_chief=...)` without
`SyncReplicasOptimizer`) and its hooks must keep running: `fit` cannot take
batch-level callbacks under `ParameterServerStrategy` (Keras 2.15) or the
strategy at all (Keras 3).

Call order, per window of `sync_every` steps::

    callbacks.on_train_begin()                    # once; a checkpoint at the start step
    while global step < steps and not model.stop_training:
        schedule min(sync_every, steps - global step) train steps   # any free worker runs each
        fetch each step's loss in scheduling order -> on_step(i, loss)
        coordinator.join()                        # every scheduled step is applied on the ps
        for each step of the window, in order:
            callbacks.on_train_batch_begin(batch)
            callbacks.on_train_batch_end(batch, {"step_loss", "loss", "global_step"})
    callbacks.on_train_end()

The callbacks run on the coordinator only — the TF2 "chief" of parameter-
server training — never on the workers, which just execute the scheduled
functions: a checkpoint or summary is written once, by the coordinator, as
TF1's chief-only hooks were. They are replayed after the join, so within a
window `optimizer.iterations` is the window's last step: with `sync_every`
dividing every callback's step interval (`window_for` picks the greatest
common divisor), each action happens at exactly the step it is due, after
every update before it. (The loop counts updates itself and sets
``optimizer.iterations`` at each join: Keras 3 loses concurrent increments.) A stop a callback requests (`model.stop_training`)
is seen at the end of the window.

Faults: a worker that dies fails its closures with `UnavailableError`; the
coordinator reschedules them on the other workers and re-creates the
per-worker dataset on the worker when it comes back. A closure whose update
reached the ps just before its worker died runs again elsewhere: one update
too many (measured: 1 in a 600-step run with a kill), which the loop's own
update count includes, so the windows after it end one step later. A step
that finished on a worker killed before its loss was fetched keeps its update
but loses its loss (`fetch_if_alive`; seen once in a suite run). A ps that
dies is fatal (the coordinator raises; restart from the last checkpoint).

The order in which workers read and update the ps variables is not
deterministic, so two runs are comparable statistically (accuracy), not step
by step; a step's loss is the loss of the i-th scheduled batch.
"""
from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

StepFn = Callable[[Any, Any], tf.Tensor]
"""One update of the model on a batch (features, labels), run on a worker: its loss."""


def fetch_if_alive(remote: Any, step: int) -> tuple[float, int] | None:
    """A finished step's (loss, worker) — or None when the worker holding it died before the coordinator read it.

    A `RemoteValue` stays on the worker that ran the closure until `fetch`
    copies it; if that worker is killed in between, the update is already on
    the ps but its loss is gone (`UnavailableError`). Training goes on: the
    step is counted by the update counter, only its loss is missing from the
    progress file and the callbacks' replay. A dead ps is not hidden by this:
    the `coordinator.join()` after the window raises it.
    """
    try:
        loss, who = remote.fetch()
    except tf.errors.UnavailableError:
        print(f"step {step}: its worker died before its loss was read; the update is on the ps, the loss is not "
              "recorded", file=sys.stderr, flush=True)
        return None
    return float(loss), int(who)


def window_for(*intervals: int | None) -> int:
    """The greatest common divisor of the callbacks' step intervals (1 without any): the join interval."""
    steps = [int(interval) for interval in intervals if interval]
    return math.gcd(*steps) if steps else 1


def worker_pid() -> tf.Tensor:
    """The id of the process that runs the op (Linux: read from ``/proc/self/stat`` there): which worker ran a step."""
    return tf.strings.to_number(tf.strings.split(tf.io.read_file("/proc/self/stat"), " ")[0], tf.int64)


def gradient_step(model: Any, loss_fn: Callable[[Any, Any], tf.Tensor]) -> StepFn:
    """A `StepFn`: the gradient of ``loss_fn(labels, model(features))`` applied by the model's optimizer."""

    def step(features: Any, labels: Any) -> tf.Tensor:
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, model(features, training=True))
        gradients = tape.gradient(loss, model.trainable_variables)
        model.optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss

    return step


def make_train_step(strategy: tf.distribute.Strategy, step_fn: StepFn, applied: tf.Variable,
                    identify: Callable[[], tf.Tensor] | None = None) -> Callable:
    """A `tf.function` taking a per-worker iterator: one `step_fn` (one update of the ps variables) on its next batch.

    It returns the loss, and what `identify()` (e.g. `worker_pid`) returns on the worker that ran it, or -1.

    `applied` (an int64 variable on the ps) counts the updates with an atomic
    ``assign_add``: Keras 3 increments ``optimizer.iterations`` as
    ``assign(iterations + 1)``, which loses increments when two workers
    update at once (measured: 36 after 40 updates).
    """

    def replica_step(features: Any, labels: Any) -> tf.Tensor:
        loss = step_fn(features, labels)
        applied.assign_add(1)
        return loss, identify() if identify is not None else tf.constant(-1, tf.int64)

    @tf.function
    def train_step(iterator) -> tf.Tensor:
        features, labels = next(iterator)
        return strategy.run(replica_step, args=(features, labels))

    return train_step


def train(
    coordinator: tf.distribute.experimental.coordinator.ClusterCoordinator,
    model: Any,
    dataset_fn: Callable[[], tf.data.Dataset],
    step_fn: StepFn,
    callbacks: Sequence[Any],
    steps: int,
    sync_every: int,
    on_step: Callable[[int, float, int], None] | None = None,
    identify: Callable[[], tf.Tensor] | None = None,
) -> int:
    """Train `model` (built and compiled under the coordinator's strategy) up to global step `steps`; the final step.

    `dataset_fn` builds one worker's infinite dataset of ``(features, labels)``
    batches (it runs on each worker, and again on a worker that restarts);
    `step_fn` is one update on one of them (`gradient_step`, or the model's own step).
    `on_step(i, loss, who)` is called as the i-th scheduled step's loss
    arrives; `who` is what `identify()` returned on the worker that ran it
    (-1 without `identify`).
    """
    if sync_every < 1:
        raise ValueError(f"sync_every must be at least 1, got {sync_every!r}.")
    strategy = coordinator.strategy
    iterations = model.optimizer.iterations
    with strategy.scope():
        applied = tf.Variable(int(iterations.numpy()), dtype=tf.int64, trainable=False, name="applied_updates")
    train_step = make_train_step(strategy, step_fn, applied, identify)
    iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))
    for callback in callbacks:
        callback.set_model(model)
    model.stop_training = False
    for callback in callbacks:
        callback.on_train_begin()
    batch = 0
    step = int(iterations.numpy())
    while step < steps and not model.stop_training:
        window = min(sync_every, steps - step)
        remote_losses = [coordinator.schedule(train_step, args=(iterator,)) for _ in range(window)]
        losses = []
        for offset, remote in enumerate(remote_losses):
            fetched = fetch_if_alive(remote, step + offset + 1)
            if fetched is None:
                continue
            losses.append(fetched[0])
            if on_step is not None:
                on_step(step + offset + 1, losses[-1], fetched[1])
        coordinator.join()
        step = int(applied.numpy())
        iterations.assign(step)  # the true update count, for the callbacks and the checkpoint
        for loss in losses:
            logs = {"step_loss": loss, "loss": loss, "global_step": step}
            for callback in callbacks:
                callback.on_train_batch_begin(batch)
            for callback in callbacks:
                callback.on_train_batch_end(batch, logs)
            batch += 1
    for callback in callbacks:
        callback.on_train_end()
    return int(iterations.numpy())
