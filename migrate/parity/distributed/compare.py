"""Compare the two clusters: losses per global step, hook/callback actions per role, test metrics, files.

Actions are ``{"hook"|"callback": name, "step": global step}`` records of
when a checkpoint/summary/step-rate/log hook or callback acted. A TF1 hook
``XHook`` is compared with the callback ``X``. The documented differences
(`EXPECTED_DIFFERENCES`) are applied before comparing, and listed in the
report next to the role they concern.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

EXPECTED_DIFFERENCES: dict[str, list[str]] = {
    "chief": [
        "none expected: the chief runs CheckpointSaver, SummarySaver, StepCounter and LoggingTensor on TF1's "
        "schedules, as MonitoredTrainingSession ran their hooks on the chief",
    ],
    "worker": [
        "TF1's LoggingTensorHook logged on every worker it was given to; LoggingTensor logs on the chief only "
        "(legacy LoggingTensorHook actions on non-chief workers are dropped before comparing)",
        "CheckpointSaver on a non-chief worker takes part in every save (a collective) into "
        "workertemp_<task> and deletes it; TF1 non-chief workers did not save at all (not an action)",
    ],
    "ps": [
        "MultiWorkerMirroredStrategy has no parameter server: variables are mirrored on every worker; "
        "the TF1 ps runs no hooks",
    ],
}

DROPPED_ON_NON_CHIEF = {"LoggingTensorHook"}


@dataclass
class LossComparison:
    steps: list[int]
    legacy: dict[int, float]
    modern: dict[int, float]
    max_abs_diff: float
    first_different_step: int | None
    tolerance: float
    checked_steps: int | None
    ok: bool

    def summary(self) -> dict:
        return {
            "steps_compared": len(self.steps), "max_abs_loss_diff": self.max_abs_diff,
            "first_different_step": self.first_different_step, "relative_tolerance": self.tolerance,
            "checked_steps": self.checked_steps, "ok": self.ok,
            "per_step": [[step, self.legacy[step], self.modern[step]] for step in self.steps],
        }


def compare_losses(legacy: dict[int, float], modern: dict[int, float], tolerance: float,
                   checked_steps: int | None = None) -> LossComparison:
    """Per global step; every step of either side must be present on the other.

    `tolerance` is relative; only the first `checked_steps` steps (all when
    None) must be within it — the rest is reported.
    """
    steps = sorted(set(legacy) & set(modern))
    diffs = {step: abs(legacy[step] - modern[step]) for step in steps}
    first = next((step for step in steps if diffs[step] != 0.0), None)
    max_diff = max(diffs.values(), default=math.inf)
    checked = [step for step in steps if checked_steps is None or step <= checked_steps]
    within = all(diffs[step] <= tolerance * abs(legacy[step]) for step in checked)
    complete = set(legacy) == set(modern) and bool(steps)
    return LossComparison(steps, legacy, modern, max_diff, first, tolerance, checked_steps, complete and within)


def _name(action: dict) -> str:
    name = action.get("hook") or action.get("callback")
    return name[: -len("Hook")] if name.endswith("Hook") else name


def normalize_legacy(role: str, actions: list[dict]) -> list[tuple[str, int]]:
    kept = [a for a in actions if role == "chief" or a.get("hook") not in DROPPED_ON_NON_CHIEF]
    return [(_name(a), int(a["step"])) for a in kept]


def normalize_modern(actions: list[dict]) -> list[tuple[str, int]]:
    return [(_name(a), int(a["step"])) for a in actions]


def compare_role_actions(role: str, task: str, legacy: list[dict] | None, modern: list[dict] | None) -> dict:
    """One role's actions, aligned; `ok` when equal after the documented differences."""
    left = normalize_legacy(role, legacy or [])
    right = normalize_modern(modern or [])
    first = next((i for i, (a, b) in enumerate(zip(left, right)) if a != b), None)
    if first is None and len(left) != len(right):
        first = min(len(left), len(right))
    return {
        "role": role, "task": task, "legacy": legacy, "modern": modern,
        "legacy_normalized": left, "modern_normalized": right,
        "first_divergence": first, "ok": first is None,
        "expected_differences": EXPECTED_DIFFERENCES.get(role, []),
    }


def replay_consistency(attempt_losses: list[dict[int, float]]) -> dict:
    """Steps trained again after a restart must give the same loss as the first time (deterministic resume)."""
    seen: dict[int, float] = {}
    replayed, mismatched = [], []
    for losses in attempt_losses:
        for step, loss in losses.items():
            if step in seen:
                replayed.append(step)
                if seen[step] != loss:
                    mismatched.append(step)
            seen[step] = loss
    return {"replayed_steps": len(replayed), "mismatched_steps": mismatched, "ok": not mismatched}
