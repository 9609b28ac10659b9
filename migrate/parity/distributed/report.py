"""The distributed parts of the parity report: the clusters and the evaluators' per-checkpoint metrics.

Everything else (stages, losses, roles as event sequences, test metrics,
the plot) is rendered by `migrate.parity.render` and `migrate.parity.plot`
like a single-process run's; these sections render the details of the
``cluster`` and ``evaluation`` stages (`migrate.parity.distributed.verdict`)
and render nothing for a stage without them.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from migrate.core.side_trace import Attempt, decode
from migrate.parity.stages import Stage


def _per_process(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items()) or "unknown"


def attempt_text(attempt: Attempt) -> str:
    if attempt.restarted_alone:
        return (f"SIGKILL {attempt.killed} at step {attempt.killed_at_step}, restarted alone while the cluster "
                f"trained on (step {attempt.cluster_step} before the kill, the chief's next "
                f"{attempt.first_step_after_kill}; {attempt.steps_lost} steps lost; steps per process: "
                f"{_per_process(attempt.steps_by_process)}), done in {attempt.seconds:.1f} s")
    if attempt.status == "killed":
        return (f"SIGKILL {attempt.killed} at step {attempt.killed_at_step}, restart from checkpoint "
                f"{attempt.resumes_from_checkpoint} ({attempt.steps_lost} steps lost and replayed)")
    return f"done in {attempt.seconds:.1f} s"


def attempts_text(attempts: Sequence[Attempt]) -> str:
    return "; ".join(attempt_text(attempt) for attempt in attempts)


def cluster_section(stage: Stage | None) -> list[str]:
    sides = (stage.details.get("sides") if stage is not None else None) or {}
    if not sides:
        return []
    out = ["## Clusters", "", "| side | engine | attempts | last attempt: training s | steps | final step | "
           "checkpoints | event files (writer) | worker temp dirs left |", "|---|---|---|---|---|---|---|---|---|"]
    for name, side in sides.items():
        files, seconds = side["files"], side["seconds"]
        events = ", ".join(f"{event['file']} ({event['role']})" for event in files["event_files"]) or "none"
        attempts = [decode(attempt, Attempt, f"{name} attempt") for attempt in side["attempts"]]
        out.append(f"| {name} | {side['engine']} | {attempts_text(attempts)} | {(seconds['training'] or 0):.2f} "
                   f"| {seconds['steps_trained']} | {side['final_step']} | {files['checkpoint_steps']} | {events} | "
                   f"{files['worker_temp_dirs_left'] or 'none'} |")
    return [*out, ""]


def evaluator_section(stage: Stage | None) -> list[str]:
    evaluation = (stage.details.get("per_checkpoint") if stage is not None else None) or {}
    if not evaluation:
        return []
    out = ["## Evaluator (per checkpoint)", "",
           f"legacy evaluated {evaluation['legacy_steps']}, modern {evaluation['modern_steps']}; compared at "
           f"{evaluation['common_steps']}", "",
           "| step | legacy accuracy | modern accuracy | legacy loss | modern loss | ok |", "|---|---|---|---|---|---|"]
    out += [f"| {row['step']} | {row['legacy'].get('accuracy', math.nan):.4f} | {row['modern'].get('accuracy', math.nan):.4f} | "
            f"{row['legacy']['loss']:.7g} | {row['modern']['loss']:.7g} | {'yes' if row['ok'] else 'NO'} |"
            for row in evaluation["per_step"]]
    out += ["", "| evaluator check | ok |", "|---|---|"]
    return out + [f"| {name} | {'yes' if ok else 'NO'} |" for name, ok in evaluation["checks"].items()] + [""]
