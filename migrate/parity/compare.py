"""Compare two sides: per-step losses, event sequences, final metrics.

Pure Python; every comparison returns a result that says whether parity holds
and, if not, where it first broke — the line a user needs to start debugging.
"""
from __future__ import annotations

import difflib
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from migrate.core.protocol import Event
from migrate.parity.difference import relative
from migrate.parity.tolerance import ToleranceSchedule


@dataclass(frozen=True)
class LossRow:
    step: int
    legacy: float | None
    modern: float | None
    abs_diff: float | None
    rel_diff: float | None
    allowed: float
    ok: bool


@dataclass
class LossComparison:
    rows: list[LossRow]
    schedule: ToleranceSchedule
    checked: bool = True

    @property
    def max_abs_loss_diff(self) -> float | None:
        diffs = [row.abs_diff for row in self.rows if row.abs_diff is not None]
        return max(diffs) if diffs else None

    @property
    def first_difference_step(self) -> int | None:
        return next((row.step for row in self.rows if row.abs_diff != 0.0), None)

    @property
    def first_violation(self) -> LossRow | None:
        return next((row for row in self.rows if not row.ok), None)

    @property
    def ok(self) -> bool:
        return bool(self.rows) and (not self.checked or self.first_violation is None)


def compare_losses(
    legacy: dict[int, float], modern: dict[int, float], schedule: ToleranceSchedule, *, checked: bool = True
) -> LossComparison:
    """Step-by-step: a NaN is a violation, and so is a step present on one side only when the losses are `checked`
    (unchecked, the sides may log different steps: asynchronous workers)."""
    rows = []
    for step in sorted(set(legacy) | set(modern)):
        a, b, allowed = legacy.get(step), modern.get(step), schedule.allowed(step)
        if a is None or b is None or math.isnan(a) or math.isnan(b):
            nan = any(value is not None and math.isnan(value) for value in (a, b))
            rows.append(LossRow(step, a, b, None, None, allowed, not nan and not checked))
        else:
            rows.append(LossRow(step, a, b, abs(a - b), relative(a, b), allowed, relative(a, b) <= allowed))
    return LossComparison(rows, schedule, checked)


def event_key(event: Event) -> tuple[Any, Any, Any]:
    return (event.get("phase"), event.get("event"), event.get("step"))


def describe_event(event: Event | None) -> str:
    if event is None:
        return "(nothing)"
    step = "" if event.get("step") is None else f" step={event['step']}"
    return f"{event.get('phase')}:{event.get('event')}{step}"


@dataclass
class EventComparison:
    """Two event sequences aligned; `scenario` names them (a scenario of `SCENARIOS`, or a cluster role),
    `description` and `expected_differences` say what ran and which differences were applied before comparing."""

    scenario: str
    legacy: list[Event]
    modern: list[Event]
    rows: list[tuple[str, Event | None, Event | None]] = field(default_factory=list)
    description: str = ""
    expected_differences: tuple[str, ...] = ()

    @property
    def first_divergence(self) -> tuple[int, Event | None, Event | None] | None:
        return next(((index, left, right) for index, (status, left, right) in enumerate(self.rows) if status != "same"),
                    None)

    @property
    def ok(self) -> bool:
        return self.first_divergence is None

    def divergence_message(self) -> str:
        divergence = self.first_divergence
        if divergence is None:
            return f"{self.scenario}: {len(self.rows)} events match"
        index, left, right = divergence
        return (
            f"{self.scenario}: first divergence at event #{index + 1}: "
            f"legacy {describe_event(left)} vs modern {describe_event(right)}"
        )


def compare_events(
    scenario: str, legacy: Sequence[Event], modern: Sequence[Event], *, description: str = "",
    expected_differences: Sequence[str] = (),
) -> EventComparison:
    """Align the two sequences (difflib) on (phase, event, step); losses are compared separately."""
    comparison = EventComparison(scenario, list(legacy), list(modern), description=description,
                                 expected_differences=tuple(expected_differences))
    matcher = difflib.SequenceMatcher(a=[event_key(event) for event in legacy], b=[event_key(event) for event in modern],
                                      autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for a, b in itertools.zip_longest(legacy[i1:i2], modern[j1:j2]):  # an equal span: as long on both sides
            status = "legacy only" if b is None else "modern only" if a is None else "differs"
            comparison.rows.append(("same" if tag == "equal" else status, a, b))
    return comparison


NOT_COMPARED_METRICS = ("loss", "global_step")
"""Shown, not compared: TF1's mean of per-batch losses and Keras' per-example mean weigh a partial batch differently."""


@dataclass(frozen=True)
class MetricComparison:
    """The metrics both sides report (other than the loss), each within `max_gap`; `accuracy` above the bar."""

    legacy: dict[str, float]
    modern: dict[str, float]
    accuracy_bar: float | None
    max_gap: float

    @property
    def compared(self) -> list[str]:
        return sorted(key for key in set(self.legacy) & set(self.modern) if key not in NOT_COMPARED_METRICS)

    @property
    def accuracy_gap(self) -> float:
        if "accuracy" in self.compared:
            return abs(self.legacy["accuracy"] - self.modern["accuracy"])
        return max((abs(self.legacy[key] - self.modern[key]) for key in self.compared), default=0.0)

    @property
    def problems(self) -> list[str]:
        found = []
        for key in self.compared:
            gap = abs(self.legacy[key] - self.modern[key])
            if gap > self.max_gap or gap != gap:
                found.append(
                    f"test accuracy differs by {100 * gap:.2f} points (allowed {100 * self.max_gap:.2f})"
                    if key == "accuracy" else
                    f"{key} differs: legacy {self.legacy[key]:.6g} vs modern {self.modern[key]:.6g} (allowed |Δ| {self.max_gap:g})"
                )
        if self.accuracy_bar is not None:
            for side, metrics in (("legacy", self.legacy), ("modern", self.modern)):
                if "accuracy" in metrics and metrics["accuracy"] < self.accuracy_bar:
                    found.append(
                        f"{side} test accuracy {100 * metrics['accuracy']:.2f}% is below the bar {100 * self.accuracy_bar:.2f}%"
                    )
        return found

    @property
    def ok(self) -> bool:
        return not self.problems


def compare_metrics(
    legacy: dict[str, Any], modern: dict[str, Any], *, accuracy_bar: float | None, max_accuracy_gap: float
) -> MetricComparison:
    return MetricComparison({key: float(value) for key, value in legacy.items()},
                            {key: float(value) for key, value in modern.items()}, accuracy_bar, max_accuracy_gap)
