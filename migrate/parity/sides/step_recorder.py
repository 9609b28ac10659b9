"""What both sides record while they train, written once: events, each step's loss, the first update, snapshots.

`legacy_side.LossRecorderHook` (a SessionRunHook) and `modern_side.LossRecorder`
(a Keras callback) each call a `StepRecorder` at the points of the protocol
(`migrate.core.protocol`): `begin`, `session_created`, `before_run`,
`after_run`, `end`; `fill` puts the run into the side's `SideTrace` and gives,
for a replay that locates a divergence, the snapshots and digests asked for
(never traced).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from migrate.core.arrays import Array
from migrate.core.protocol import Event, losses_by_step, make_event
from migrate.core.side_trace import SideTrace
from migrate.parity.options import Progress

Values = dict[str, Array]
Digest = Callable[[Values], dict[str, str]]


class Snapshots(NamedTuple):
    """Every tracked variable after each step a replay asked for (0: the start), and a digest of every step."""

    captured: dict[int, Values]
    digests: dict[int, dict[str, str]]


class StepRecorder:
    """One training run's record on either side.

    Tracked are the trainable variables and the state variables; only a change of a `trainable` one counts
    as the first update (batch-norm statistics move even at learning rate 0). Steps in `capture` are
    snapshotted (0 is the start); with `digest`, every step is digested.
    """

    def __init__(self, side: str, progress: Progress, total: int, capture: Sequence[int] = (),
                 digest: Digest | None = None) -> None:
        self.side, self.progress, self.total, self.every = side, progress, total, max(1, total // 10)
        self.capture, self.digest = set(capture), digest
        self.events: list[Event] = []
        self.trainable: list[str] = []
        self.initial: Values = {}
        self.after_first_step: Values = {}
        self.first_update_step: int | None = None
        self.snapshots = Snapshots({}, {})
        self.start = self.step = 0

    def begin(self) -> None:
        self.events.append(make_event("train", "begin"))

    def session_created(self, step: int, initial: Values, trainable: Sequence[str]) -> None:
        """The session (or `fit`) starts at global step `step` with the tracked variables at `initial`."""
        self.start = self.step = step
        self.initial, self.trainable = initial, list(trainable)
        if 0 in self.capture:
            self.snapshots.captured[0] = initial
        self.events.append(make_event("train", "after_create_session", step))

    def before_run(self) -> None:
        self.events.append(make_event("train", "before_run", self.step + 1))

    def after_run(self, loss: float, read: Callable[[], Values], stop_requested: bool) -> None:
        """A step ended with `loss`; `read()` gives the tracked variables now (read only when needed)."""
        self.step += 1
        run = self.step - self.start
        self.events.append(make_event("train", "after_run", self.step, loss))
        values = None
        if self.first_update_step is None:
            values = read()
            if any(not np.array_equal(values[name], self.initial[name]) for name in self.trainable):
                self.first_update_step, self.after_first_step = run, values
        if run in self.capture or self.digest is not None:
            values = values if values is not None else read()
            if run in self.capture:
                self.snapshots.captured[run] = values
            if self.digest is not None:
                self.snapshots.digests[run] = self.digest(values)
        if self.step % self.every == 0 or self.step == self.total:
            self.progress(f"  {self.side} step {self.step}/{self.total}  loss {loss:.6f}")
        if stop_requested:
            self.events.append(make_event("train", "request_stop", self.step))

    def end(self) -> None:
        self.events.append(make_event("train", "end", self.step))

    def fill(self, trace: SideTrace, nan_at: int | None = None) -> Snapshots:
        """Put the run into `trace`, in place (the stages hold that trace): each step's loss, the steps run, `nan_at`
        (the step a NaN loss stopped), the events and the first update (the rest of a trace comes from preparing
        the side, evaluating it, scenarios); give the snapshots."""
        trace.losses = dict(sorted(losses_by_step(self.events).items()))
        trace.steps_run, trace.nan_at, trace.train_events = len(trace.losses), nan_at, self.events
        trace.first_update_step, trace.after_first_step = self.first_update_step, self.after_first_step
        return self.snapshots
