"""Compare the evaluator tasks: TF1's `train_and_evaluate` evaluator against the TF2 sidecar evaluator.

Both evaluate the chief's *newest* checkpoint whenever they look, so which
intermediate checkpoints get evaluated depends on timing (a checkpoint saved
while the evaluator is busy is skipped, on both sides). What must hold:

* every checkpoint step an evaluator reports is a checkpoint the chief of its
  side wrote, and each evaluation wrote exactly one summary to ``eval/`` at
  that step (the per-role event sequences, after keeping only the steps both
  evaluators evaluated);
* both evaluated the checkpoint of the last step (that is when they stop);
* at every step both evaluated, the metrics agree: accuracy identical when
  training was bit-identical (the same weights, the same images), the loss
  within `LOSS_RELATIVE_TOLERANCE` — TF1's ``loss`` metric is the mean of the
  per-batch means, Keras' the mean over examples, the same number summed in
  another order when every eval batch is full (measured: 1.1e-7 relative at
  step 0, 0.0 at step 16); with a partial last batch the two losses are
  different quantities and are only reported.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from migrate.core.side_trace import Evaluation, SideTrace
from migrate.parity.difference import relative
from migrate.parity.distributed.compare import action_name

LOSS_RELATIVE_TOLERANCE = 1e-5
MAX_ACCURACY_GAP_INEXACT = 0.005


def _evaluations(trace: SideTrace | None) -> dict[int, Evaluation]:
    """An evaluator's evaluations by checkpoint step."""
    return {e.step: e for e in (trace.evaluations if trace is not None else [])}


def _one_summary_per_evaluation(trace: SideTrace | None) -> bool:
    actions = trace.actions if trace is not None else []
    return sorted(a.step for a in actions if action_name(a) == "Evaluation") == \
        sorted(a.step for a in actions if action_name(a) == "EvalSummary")


@dataclass(frozen=True)
class CheckpointEvaluations:
    """Both evaluators' per-checkpoint metrics: which steps each evaluated, and the metrics where both did."""

    legacy: dict[int, Evaluation]
    modern: dict[int, Evaluation]
    checks: dict[str, bool]
    max_accuracy_gap: float
    full_batches: bool

    @property
    def common_steps(self) -> list[int]:
        return sorted(set(self.legacy) & set(self.modern))

    def row(self, step: int) -> dict[str, Any]:
        left, right = self.legacy[step].metrics, self.modern[step].metrics
        gap = abs(left.get("accuracy", 0.0) - right.get("accuracy", 0.0))  # a pair without accuracy: the loss decides
        loss = relative(left["loss"], right["loss"])
        ok = gap <= self.max_accuracy_gap and (not self.full_batches or loss <= LOSS_RELATIVE_TOLERANCE)
        return {"step": step, "legacy": left, "modern": right, "accuracy_gap": gap, "loss_relative": loss, "ok": ok}

    @property
    def problems(self) -> list[str]:
        return [name.replace("_", " ") for name, ok in self.checks.items() if not ok]

    def note(self) -> str:
        return (f"evaluator: legacy evaluated checkpoints {sorted(self.legacy)}, modern {sorted(self.modern)} (the newest "
                f"when each looked); metrics compared at {self.common_steps}: accuracy "
                + ("identical (training was bit-identical)" if self.max_accuracy_gap == 0.0
                   else f"within {self.max_accuracy_gap * 100:g} points")
                + (f", loss within relative {LOSS_RELATIVE_TOLERANCE:g} (TF1: mean of batch means; Keras: mean over "
                   "examples; equal up to summation order as every eval batch is full)." if self.full_batches else
                   ", loss only reported: the last eval batch is partial, so TF1's mean of batch means and Keras' mean "
                   "over examples are different quantities."))

    def as_dict(self) -> dict[str, Any]:
        return {"legacy_steps": sorted(self.legacy), "modern_steps": sorted(self.modern),
                "common_steps": self.common_steps, "per_step": [self.row(step) for step in self.common_steps],
                "checks": self.checks, "max_accuracy_gap": self.max_accuracy_gap,
                "loss_relative_tolerance": LOSS_RELATIVE_TOLERANCE, "full_batches": self.full_batches}


def compare_evaluations(legacy: SideTrace | None, modern: SideTrace | None, legacy_checkpoints: list[int],
                        modern_checkpoints: list[int], last_step: int, exact: bool,
                        full_batches: bool) -> CheckpointEvaluations:
    """Each evaluator evaluated checkpoints of its own chief, the last step among them, one summary each; where
    both evaluated a step, the accuracy agrees (identical after bit-identical training) and the loss too."""
    left, right = _evaluations(legacy), _evaluations(modern)
    partial = CheckpointEvaluations(left, right, {}, 0.0 if exact else MAX_ACCURACY_GAP_INEXACT, full_batches)
    rows = [partial.row(step) for step in partial.common_steps]
    checks = {
        "legacy_evaluated_its_checkpoints": bool(left) and set(left) <= set(legacy_checkpoints),
        "modern_evaluated_its_checkpoints": bool(right) and set(right) <= set(modern_checkpoints),
        "both_evaluated_the_last_step": last_step in left and last_step in right,
        "metrics_agree": bool(rows) and all(row["ok"] for row in rows),
        "one_summary_per_evaluation": _one_summary_per_evaluation(legacy) and _one_summary_per_evaluation(modern),
    }
    return CheckpointEvaluations(left, right, checks, partial.max_accuracy_gap, full_batches)
