"""A finished parity comparison and its JSON summary."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from migrate.parity.compare import EventComparison, LossComparison, MetricComparison, describe_event
from migrate.parity.scenarios import SCENARIOS


@dataclass
class ParityResult:
    config: dict[str, Any]
    versions: dict[str, dict[str, str]]
    losses: LossComparison
    events: list[EventComparison]
    metrics: MetricComparison
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.losses.ok and all(item.ok for item in self.events) and self.metrics.ok

    def failures(self) -> list[str]:
        found = []
        violation = self.losses.first_violation
        if violation is not None:
            found.append(
                f"losses: first step beyond tolerance is {violation.step}: legacy {violation.legacy!r} vs "
                f"modern {violation.modern!r} (|Δ|={violation.abs_diff!r}, allowed relative {violation.allowed:g})"
            )
        if not self.losses.rows:
            found.append("losses: no per-step losses were recorded")
        found += [item.divergence_message() for item in self.events if not item.ok]
        found += [f"metrics: {problem}" for problem in self.metrics.problems]
        return found

    def summary(self) -> dict[str, Any]:
        """The JSON summary written to `--out DIR/parity-summary.json`."""
        first = self.losses.first_violation
        return {
            "ok": self.ok,
            "config": self.config,
            "versions": self.versions,
            "losses": {
                "ok": self.losses.ok,
                "max_abs_loss_diff": self.losses.max_abs_loss_diff,
                "first_difference_step": self.losses.first_difference_step,
                "first_violation_step": first.step if first else None,
                "tolerance": self.losses.schedule.describe(),
                "why": self.losses.schedule.explanation,
                "steps_compared": len(self.losses.rows),
                "rows": [row.__dict__ for row in self.losses.rows],
            },
            "events": {
                item.scenario: {
                    "ok": item.ok,
                    "description": SCENARIOS[item.scenario].description if item.scenario in SCENARIOS else "",
                    "expected_differences": list(SCENARIOS[item.scenario].expected_differences)
                    if item.scenario in SCENARIOS else [],
                    "first_divergence": None if item.ok else {
                        "index": item.first_divergence[0],
                        "legacy": describe_event(item.first_divergence[1]),
                        "modern": describe_event(item.first_divergence[2]),
                    },
                    "events_compared": len(item.rows),
                }
                for item in self.events
            },
            "metrics": {
                "ok": self.metrics.ok,
                "legacy": self.metrics.legacy,
                "modern": self.metrics.modern,
                "accuracy_gap_points": 100 * self.metrics.accuracy_gap,
                "accuracy_bar": self.metrics.accuracy_bar,
                "problems": self.metrics.problems,
            },
            "failures": self.failures(),
            "notes": self.notes,
        }
