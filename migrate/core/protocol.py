"""The SessionRunHook protocol and the event vocabulary, written once.

Both sides record what the training loop does as a list of plain events
(JSON-serialisable dicts), so a TF1 run and its TF2 rebuild can be compared
line by line. `legacy.hooks.event_recorder.EventRecorderHook` writes them from
the SessionRunHook methods, `modern.callbacks.event_recorder.EventRecorder`
from the Keras callback methods; parity and the tests compare them with the
expectations built here. This module is TensorFlow-free.

The TF1 protocol (MonitoredSession; Estimator train/evaluate/predict and
`MonitoredTrainingSession` all run it), as pseudocode::

    for hook in hooks: hook.begin()            # graph still mutable
    graph.finalize()
    session = create_session()                 # restores the checkpoint, if any
    for hook in hooks: hook.after_create_session(session, coord)
    while not stop_requested:
        for hook in hooks: args = hook.before_run(run_context)   # SessionRunArgs
        try:
            results = session.run(fetches + args.fetches, feed_dict=args.feeds)
        except (OutOfRangeError, StopIteration):                 # input exhausted
            break                              # after_run of this step is NOT called...
        for hook in hooks: hook.after_run(run_context, run_values)
        stop_requested = any(hook called run_context.request_stop())
    for hook in hooks: hook.end(session)       # ...but end() IS called.
    # Any other exception: neither after_run nor end is called.

Edge cases, as the tests encode them:

* every hook's `after_run` sees the step in which another hook requested the
  stop; the loop ends after that step, then `end` runs;
* `after_create_session` runs again when a session is recreated after
  Aborted/Unavailable (not exercised on one machine);
* `Estimator.predict` is a generator: stopping consumption early may skip `end`.

Keras (2.15 and 3) runs the same shape of loop; the canonical mapping is
`KERAS_TO_TF1` below: `on_train_begin` stands for `begin` +
`after_create_session`, batch begin/end for `before_run`/`after_run`,
`on_train_end` for `end`, `model.stop_training = True` for `request_stop`.
When data runs out (unknown cardinality), Keras calls `on_*_batch_begin` for
the failed step but not `on_*_batch_end`, then `on_*_end` — as TF1 does.

Event fields:

* ``phase``: "train", "evaluate" or "predict";
* ``event``: one of `EVENTS`;
* ``step``: for train, the global step the run produces (before_run/after_run
  of the k-th run after a session that started at global step s carry s + k);
  `after_create_session` carries s, `request_stop` and `end` the last completed
  step. For evaluate and predict, the 1-based batch index (0 at session start).
  `begin` carries no step (`None`).
* ``loss``: on train `after_run` only, the loss of that very step (float).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

PHASES = ("train", "evaluate", "predict")
EVENTS = ("begin", "after_create_session", "before_run", "after_run", "request_stop", "end")

Event = dict[str, Any]

KERAS_TO_TF1: dict[str, tuple[str, ...]] = {
    "on_train_begin": ("begin", "after_create_session"),
    "on_train_batch_begin": ("before_run",),
    "on_train_batch_end": ("after_run",),
    "on_train_end": ("end",),
    "on_test_begin": ("begin", "after_create_session"),
    "on_test_batch_begin": ("before_run",),
    "on_test_batch_end": ("after_run",),
    "on_test_end": ("end",),
    "on_predict_begin": ("begin", "after_create_session"),
    "on_predict_batch_begin": ("before_run",),
    "on_predict_batch_end": ("after_run",),
    "on_predict_end": ("end",),
}
"""Keras callback method → the SessionRunHook calls it stands for, in order: the one table of the mapping."""

HOOK_METHODS = ("begin", "after_create_session", "before_run", "after_run", "end")
"""The SessionRunHook methods a subclass overrides, in call order."""


def _invert(mapping: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    inverted: dict[str, list[str]] = {}
    for keras_method, hook_methods in mapping.items():
        for hook_method in hook_methods:
            inverted.setdefault(hook_method, []).append(keras_method)
    return {hook_method: tuple(inverted[hook_method]) for hook_method in HOOK_METHODS}


TF1_TO_KERAS: dict[str, tuple[str, ...]] = _invert(KERAS_TO_TF1)
"""SessionRunHook method → the Keras callback methods standing for it (derived); the `on_train_*` one first."""


def make_event(phase: str, event: str, step: int | None = None, loss: float | None = None) -> Event:
    """One event in the shared vocabulary; `loss` is included only when known."""
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {PHASES}, got {phase!r}")
    if event not in EVENTS:
        raise ValueError(f"event must be one of {EVENTS}, got {event!r}")
    record: Event = {"phase": phase, "event": event, "step": step}
    if loss is not None:
        record["loss"] = float(loss)
    return record


def expected_events(
    phase: str,
    completed_steps: int,
    *,
    start_step: int = 0,
    input_exhausted: bool = False,
    stop_requested: bool = False,
) -> list[Event]:
    """The documented TF1 sequence of one session (without losses).

    `completed_steps` runs finish (after_run called); with `input_exhausted`
    one more run starts (before_run) and fails without after_run; with
    `stop_requested` a hook asked to stop in the last completed step.
    """
    last = start_step + completed_steps
    events = [make_event(phase, "begin"), make_event(phase, "after_create_session", start_step)]
    for step in range(start_step + 1, last + 1):
        events += [make_event(phase, "before_run", step), make_event(phase, "after_run", step)]
    if stop_requested:
        events.append(make_event(phase, "request_stop", last))
    if input_exhausted:
        events.append(make_event(phase, "before_run", last + 1))
    events.append(make_event(phase, "end", last))
    return events


def without_losses(events: Iterable[Event]) -> list[Event]:
    """The events with the `loss` field dropped, for comparing call sequences only."""
    return [{key: value for key, value in event.items() if key != "loss"} for event in events]


def losses_by_step(events: Iterable[Event], phase: str = "train") -> dict[int, float]:
    """step → loss from the `after_run` events of one phase."""
    return {
        event["step"]: event["loss"]
        for event in events
        if event["phase"] == phase and event["event"] == "after_run" and "loss" in event
    }
