"""Per-role hook/callback actions of the two clusters, compared as event sequences; steps replayed after a fault.

An action (`migrate.core.side_trace.Action`) is when a
checkpoint/summary/step-rate/log hook or callback acted, at which global step. A TF1 hook ``XHook``
is the callback ``X``. Each role's actions become events ``(role, name,
step)`` and go through the single-process comparator
(`migrate.parity.compare.compare_events`). The documented differences
(`EXPECTED_DIFFERENCES`, per replication and role) are applied before
comparing and shown with the comparison. Asynchronous clusters compare which
hooks/callbacks acted, not at which step: TF1's chief hooks fire at the global
step the chief sees after its own update, which the other workers also advance.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from migrate.core.protocol import Event
from migrate.core.side_trace import Action
from migrate.parity.compare import EventComparison, compare_events

EXPECTED_DIFFERENCES: dict[str, dict[str, tuple[str, ...]]] = {
    "sync": {
        "chief": ("none expected: the chief runs CheckpointSaver, SummarySaver, StepCounter and LoggingTensor on "
                  "TF1's schedules, as MonitoredTrainingSession ran their hooks on the chief",),
        "worker": (
            "TF1's LoggingTensorHook logged on every worker it was given to; LoggingTensor logs on the chief only "
            "(legacy LoggingTensorHook actions on non-chief workers are dropped before comparing)",
            "CheckpointSaver on a non-chief worker takes part in every save (a collective) into workertemp_<task> "
            "and deletes it; TF1 non-chief workers did not save at all (not an action)",
        ),
        "ps": ("MultiWorkerMirroredStrategy has no parameter server: variables are mirrored on every worker; the "
               "TF1 ps runs no hooks",),
    },
    "async": {
        "chief": ("TF1: worker 0 is the chief and also trains; its hooks fire at the global step it sees after its "
                  "own run, which the other workers also advance (steps are listed, not compared). TF2: the "
                  "coordinator (TF_CONFIG's chief) trains nothing itself and runs every callback, at join "
                  "boundaries where the step is exact",),
        "worker": ("TF1's LoggingTensorHook logged on every worker it was given to (dropped before comparing); TF2 "
                   "ParameterServerStrategy workers only execute the functions the coordinator schedules: no "
                   "callbacks",),
        "ps": ("both sides' parameter servers only hold the variables: no hooks, no callbacks",),
    },
    "evaluator": {
        "evaluator": (
            "each evaluator evaluates the newest checkpoint when it looks (Estimator: every EvalSpec throttle_secs; "
            "sidecar: tf.train.checkpoints_iterator), so the intermediate checkpoints evaluated depend on timing: "
            "only steps both evaluated are compared",
            "TF1 records Evaluation with each evaluation's metrics (an EvalSpec exporter) and EvalSummary from the "
            "eval/ events the Estimator wrote; TF2 with each evaluation's metrics and from the eval/ events the "
            "sidecar wrote with tf.summary",
        ),
    },
}
DROPPED_ON_NON_CHIEF = {"LoggingTensorHook"}


def action_name(action: Action) -> str:
    name = action.by
    return name[: -len("Hook")] if name.endswith("Hook") else name


def shown(actions: Sequence[Action]) -> str:
    """``name@step, …`` — how a role's actions are listed where their steps are not compared."""
    return ", ".join(f"{action_name(action)}@{action.step}" for action in actions) or "none"


def _events(role: str, actions: Sequence[Action], steps: bool) -> list[Event]:
    if not steps:
        return [{"phase": role, "event": name, "step": None} for name in sorted({action_name(a) for a in actions})]
    return [{"phase": role, "event": action_name(a), "step": a.step} for a in actions]


def compare_role(role: str, task: str, legacy: Sequence[Action] | None, modern: Sequence[Action] | None,
                 replication: str = "sync") -> EventComparison:
    """One role's actions after the documented differences: the same (name, step) sequence, or asynchronous,
    the same set of names (the steps are listed in the description)."""
    kept = [a for a in legacy or () if role == "chief" or a.by not in DROPPED_ON_NON_CHIEF]
    steps = replication != "async"
    description = "" if steps else f"acted (steps listed, not compared): legacy {shown(kept)}; modern {shown(modern or ())}"
    return compare_events(f"{role} ({task})", _events(role, kept, steps), _events(role, modern or (), steps),
                          description=description, expected_differences=EXPECTED_DIFFERENCES[replication].get(role, ()))


def compare_evaluator_role(legacy: Sequence[Action], modern: Sequence[Action]) -> EventComparison:
    """The evaluator task's Evaluation/EvalSummary actions, at the checkpoint steps both evaluators evaluated."""
    def evaluated(actions: Sequence[Action]) -> set[int]:
        return {a.step for a in actions if action_name(a) == "Evaluation"}

    common = evaluated(legacy) & evaluated(modern)
    return compare_events(
        "evaluator (evaluator:0)", _events("evaluator", [a for a in legacy if a.step in common], True),
        _events("evaluator", [a for a in modern if a.step in common], True), description="",
        expected_differences=EXPECTED_DIFFERENCES["evaluator"]["evaluator"])


def replay_consistency(attempt_losses: list[dict[int, float]]) -> dict[str, Any]:
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
