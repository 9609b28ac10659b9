"""`EventRecorderHook`: write down every SessionRunHook call in the shared event vocabulary.

The recorded list (`migrate.core.protocol.make_event` dicts) is what parity
compares with the Keras side and what the protocol tests compare with
`migrate.core.protocol.expected_events`.

Put the recorder LAST in the hooks list. A stop request is recorded when
`run_context.stop_requested` is true in the recorder's `after_run`, so it sees
only requests from hooks before it. In particular `Estimator.train` appends
its own `StopAtStepHook` (from `steps` / `max_steps`) after the user's hooks:
reaching the step budget is not recorded as a `request_stop` — it is the
counterpart of Keras' fixed step count, not of `model.stop_training`.

Twin: `modern/callbacks/event_recorder.py`.
"""
from __future__ import annotations

import json
import os
from typing import Any

import tensorflow as tf

from legacy.hooks.names import LOSS
from legacy.hooks.step_tracking import StepTrackingHook
from migrate.core.protocol import Event, make_event


class EventRecorderHook(StepTrackingHook):
    """Records `begin`, `after_create_session`, `before_run`, `after_run` (+ loss), `request_stop`, `end`.

    Args:
        phase: "train", "evaluate" or "predict"; decides the step convention
            (global step vs. 1-based batch index) and whether the loss is fetched.
        loss_name: the loss tensor to fetch in training.

    Example::

        recorder = EventRecorderHook("train")
        estimator.train(input_fn, steps=100, hooks=[*other_hooks, recorder])
        recorder.save("train-events.json")
    """

    def __init__(self, phase: str = "train", loss_name: str = LOSS) -> None:
        super().__init__(phase, loss_name)
        self.events: list[Event] = []

    def _record(self, event: str, step: int | None = None, loss: float | None = None) -> None:
        self.events.append(make_event(self.phase, event, step, loss))

    def begin(self) -> None:
        """Called first, while the graph can still change."""
        super().begin()
        self._record("begin")

    def after_create_session(self, session: tf.compat.v1.Session, coord: tf.train.Coordinator) -> None:
        """Called once the session exists; carries the start step."""
        super().after_create_session(session, coord)
        self._record("after_create_session", self.step)

    def before_run(self, run_context: tf.compat.v1.train.SessionRunContext) -> tf.compat.v1.train.SessionRunArgs | None:
        """Called before every run, including one that then fails on exhausted input."""
        args = super().before_run(run_context)
        self._record("before_run", self.running_step)
        return args

    def after_run(
        self, run_context: tf.compat.v1.train.SessionRunContext, run_values: tf.compat.v1.train.SessionRunValues
    ) -> None:
        """Called after every successful run; records the loss and a stop requested by an earlier hook."""
        super().after_run(run_context, run_values)
        self._record("after_run", self.step, self.loss)
        if run_context.stop_requested:
            self._record("request_stop", self.step)

    def end(self, session: tf.compat.v1.Session) -> None:
        """Called at the end of the session (also on input exhaustion; not on other errors)."""
        self._record("end", self.step)

    def save(self, path: str | os.PathLike) -> None:
        """Write the events as a JSON list."""
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(self.events, handle, indent=1)


def load_events(path: str | os.PathLike) -> list[dict[str, Any]]:
    """Read events written by `EventRecorderHook.save`."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)
