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

from pathlib import Path

LOSS_RELATIVE_TOLERANCE = 1e-5
MAX_ACCURACY_GAP_INEXACT = 0.005
EXPECTED_DIFFERENCES = [
    "each evaluator evaluates the newest checkpoint when it looks (Estimator: every EvalSpec throttle_secs; sidecar: "
    "tf.train.checkpoints_iterator), so the intermediate checkpoints evaluated depend on timing: only steps both "
    "evaluated are compared",
    "TF1 records Evaluation in an EvalSpec hook's end() and EvalSummary from eval/ events the Estimator wrote; TF2 "
    "in a callback's on_test_end() and from the eval/ events the sidecar wrote with tf.summary",
]


def eval_event_files(model_dir: Path, writer_pids: dict[int, str]) -> list[dict]:
    """The event files under ``<model_dir>/eval`` with the task whose process wrote each (TF2 names hold the pid)."""
    files = []
    for path in sorted((model_dir / "eval").glob("events.out.tfevents.*")):
        parts = path.name.split(".")
        pid = int(parts[-3]) if parts[-1] == "v2" and parts[-3].isdigit() else None
        files.append({"file": path.name, "pid": pid,
                      "role": "unattributed (no pid in a TF1 event file name)" if pid is None else writer_pids.get(pid, "unknown")})
    return files


def _steps(trace: dict | None, name: str) -> list[int]:
    actions = (trace or {}).get("actions") or []
    return [int(action["step"]) for action in actions if (action.get("hook") or action.get("callback")) == name]


def compare_evaluator_actions(legacy: dict | None, modern: dict | None) -> dict:
    """The evaluator role's events (Evaluation, EvalSummary per step) at the steps both evaluated."""
    common = set(_steps(legacy, "Evaluation")) & set(_steps(modern, "Evaluation"))

    def normalized(trace: dict | None) -> list[tuple[str, int]]:
        actions = (trace or {}).get("actions") or []
        kept = [((action.get("hook") or action.get("callback")), int(action["step"])) for action in actions]
        return [(name, step) for name, step in kept if step in common]

    left, right = normalized(legacy), normalized(modern)
    first = next((i for i, (a, b) in enumerate(zip(left, right)) if a != b), None)
    if first is None and len(left) != len(right):
        first = min(len(left), len(right))
    each_once = all(sorted(_steps(trace, "Evaluation")) == sorted(_steps(trace, "EvalSummary")) for trace in (legacy, modern))
    return {
        "role": "evaluator", "task": "evaluator:0",
        "legacy": legacy and legacy["actions"], "modern": modern and modern["actions"],
        "legacy_normalized": left, "modern_normalized": right, "first_divergence": first,
        "one_summary_per_evaluation": each_once,
        "ok": legacy is not None and modern is not None and bool(common) and first is None and each_once,
        "expected_differences": EXPECTED_DIFFERENCES,
    }


def compare_evaluations(legacy: dict | None, modern: dict | None, legacy_checkpoints: list[int],
                        modern_checkpoints: list[int], last_step: int, exact: bool, full_batches: bool) -> dict:
    """Per-checkpoint metrics of both evaluators: which steps, and the metrics where both evaluated one."""
    left = {record["step"]: record for record in (legacy or {}).get("evaluations") or []}
    right = {record["step"]: record for record in (modern or {}).get("evaluations") or []}
    common = sorted(set(left) & set(right))
    gap_allowed = 0.0 if exact else MAX_ACCURACY_GAP_INEXACT
    rows = []
    for step in common:
        accuracy_gap = abs(left[step]["accuracy"] - right[step]["accuracy"])
        loss_diff = abs(left[step]["loss"] - right[step]["loss"])
        loss_ok = not full_batches or loss_diff <= LOSS_RELATIVE_TOLERANCE * abs(left[step]["loss"])
        rows.append({"step": step, "legacy": left[step], "modern": right[step], "accuracy_gap": accuracy_gap,
                     "loss_abs_diff": loss_diff, "ok": accuracy_gap <= gap_allowed and loss_ok})
    checks = {
        "legacy_evaluated_its_checkpoints": bool(left) and set(left) <= set(legacy_checkpoints),
        "modern_evaluated_its_checkpoints": bool(right) and set(right) <= set(modern_checkpoints),
        "both_evaluated_the_last_step": last_step in left and last_step in right,
        "metrics_agree": bool(rows) and all(row["ok"] for row in rows),
    }
    notes = [
        f"evaluator: legacy evaluated checkpoints {sorted(left)}, modern {sorted(right)} (the newest when each looked); "
        f"metrics compared at {common}: accuracy "
        + ("identical (training was bit-identical)" if exact else f"within {MAX_ACCURACY_GAP_INEXACT * 100:g} points")
        + (f", loss within relative {LOSS_RELATIVE_TOLERANCE:g} (TF1: mean of batch means; Keras: mean over examples; "
           "equal up to summation order as every eval batch is full)." if full_batches else
           ", loss only reported: the last eval batch is partial, so TF1's mean of batch means and Keras' mean over "
           "examples are different quantities."),
    ]
    return {"legacy_steps": sorted(left), "modern_steps": sorted(right), "common_steps": common, "per_step": rows,
            "checks": checks, "max_accuracy_gap": gap_allowed, "loss_relative_tolerance": LOSS_RELATIVE_TOLERANCE,
            "full_batches": full_batches, "notes": notes, "ok": all(checks.values())}
