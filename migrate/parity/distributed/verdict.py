"""The distributed verdict: both clusters' records in, the single-process `ParityResult` out.

The same comparators (`migrate.parity.compare`: losses under a tolerance
schedule, event sequences, metrics) and stage checks, run as one pipeline
(`migrate.parity.stages.run_checks`: the first check that fails stops the
rest, reported as skipped):

1. cluster     each side's last attempt finished, reached the last step and checkpointed it, with one writer
               of checkpoints and event files (synchronous: the same checkpoint steps on both sides);
2. N steps     the loss of every global batch: bit-identical for a power-of-two worker count, within a measured
               constant tolerance over the first steps otherwise (the reduction rounds), shown only when asynchronous;
3. roles       per role, which hook or callback acted at which global step (`compare`), the evaluator's too;
4. replay      after a fault, the steps trained again repeat their losses (synchronous: the cluster restarted
               from its checkpoint) or the killed task, restarted alone, let the run complete (asynchronous);
5. evaluation  the test metrics (identical after bit-identical training, within 0.5 points, or the
               asynchronous band) and the evaluators' per-checkpoint metrics (`compare_evaluator`).

A run of one side only checks its cluster and its replay.
"""
from __future__ import annotations

from typing import Any

from migrate.core.side_trace import Action, SideTrace, encode
from migrate.parity.advice import replica_scaling_advice
from migrate.parity.compare import LossComparison, compare_losses, compare_metrics
from migrate.parity.config import json_safe
from migrate.parity.distributed import compare, compare_async, compare_evaluator
from migrate.parity.distributed.config import DistributedConfig
from migrate.parity.distributed.report import attempts_text
from migrate.parity.distributed.sides import ClusterRun
from migrate.parity.result import ParityResult
from migrate.parity.stages import Check, Stage, check_evaluation, check_n_steps, run_checks
from migrate.parity.tolerance import ToleranceSchedule, named_schedule

INEXACT_RELATIVE_TOLERANCE = 1e-6
INEXACT_CHECKED_STEPS = 10
TITLES = {"cluster": "1. cluster (processes, attempts, files)", "n-steps": "2. N global steps (losses)",
          "roles": "3. per-role actions (hooks vs callbacks)", "replay": "4. replay after a fault",
          "evaluation": "5. evaluation (test set, evaluator)"}
CLUSTER_TITLES = {
    "sync": "ps/worker cluster (MonitoredTrainingSession) vs MultiWorkerMirroredStrategy",
    "async": "asynchronous ps/worker cluster vs ParameterServerStrategy with a coordinator",
    "estimator": "Estimator train_and_evaluate (chief, worker, ps, evaluator) vs MultiWorkerMirroredStrategy + "
                 "sidecar evaluator",
}


def loss_schedule(config: DistributedConfig) -> ToleranceSchedule:
    """Bit-identity (N a power of two), the measured constant tolerance over the first steps, or shown only (async)."""
    if config.replication == "async":
        return compare_async.ASYNCHRONOUS
    if config.run.schedule not in (None, "exact"):  # the pair's own: its sides round differently, cluster or not
        return named_schedule(str(config.run.schedule), "exact")
    if config.exact:
        return ToleranceSchedule(
            "exact/sgd", 0.0, 1.0, 0.0,
            "the mean loss of each global batch; legacy = float32 sum over workers of (worker loss / N), modern = the "
            "all-reduced value every worker logs. With N a power of two, dividing by N is exact and the sum of two "
            "terms rounds once either way, so the losses must be bit-identical.")
    return ToleranceSchedule(
        "inexact reduction", INEXACT_RELATIVE_TOLERANCE, 1.0, INEXACT_RELATIVE_TOLERANCE,
        f"the mean loss of each global batch. With N = {config.workers} (not a power of two) g/N rounds, and "
        "SyncReplicasOptimizer's sum-then-divide rounds differently from the all-reduce's divide-then-sum: losses "
        "differ by an ulp from the first steps and the trajectories drift apart later (measured with 3 workers: "
        "within 1 ulp for 60 steps, up to 0.12 apart by step 100, test accuracy 0.3 points apart). So only the first "
        f"{INEXACT_CHECKED_STEPS} steps must agree and accuracy decides (at most "
        f"{compare_evaluator.MAX_ACCURACY_GAP_INEXACT * 100:g} points apart).", until=INEXACT_CHECKED_STEPS)


def settings(config: DistributedConfig) -> dict[str, Any]:
    """The run's settings in the single-process config's shape (pair, mode, steps, seed, params), then its own."""
    run = config.run
    kill = None if config.kill is None else f"{config.kill.task_type}:{config.kill.index}@{config.kill.step}"
    deployment = (f"--workers {config.workers} --replication {config.replication}"
                  + (" --evaluator" if config.evaluator else "") + (f" --kill {kill}" if kill else "")
                  + f" (cluster {config.cluster}: {CLUSTER_TITLES[config.cluster]})")
    params = {key: value for key, value in run.legacy_params.items() if key not in ("seed", "mode")}
    return {
        "workers": config.workers, "steps": config.steps, "global_batch_size": run.global_batch_size,
        "seed": run.seed, "save_steps": config.save_every, "log_steps": config.log_every, "kill": kill,
        "timeout": config.timeout, "sides": list(config.sides), "replication": config.replication,
        "evaluator": config.evaluator, "pair": run.name, "schedule": run.schedule, "cluster": config.cluster,
        "mode": "statistical" if config.replication == "async" else "exact", "params": json_safe(params),
        "modern_overrides": json_safe({key: value for key, value in run.modern_params.items()
                                       if run.legacy_params.get(key) != value}),
        "deployment": deployment,
    }


def side_summary(side: ClusterRun) -> dict[str, Any]:
    """What the cluster stage keeps of a side: engine, tasks, attempts, files, how far it got, timings."""
    role, checkpoints = side.chief.role if side.chief else None, side.files.checkpoint_steps
    return {"engine": side.engine, "tasks": side.tasks, "files": encode(side.files),
            "attempts": [encode(attempt) for attempt in side.attempts],  # as the JSON summary holds them
            "final_step": role.final_step if role else None, "last_checkpoint": max(checkpoints, default=None),
            "extra_updates": role.extra_updates if role else None,
            "seconds": {"startup": role.startup_seconds if role else None, "training": role.seconds if role else None,
                        "steps_trained": role.final_step - role.start_step if role else 0}}


def _verdict(stage: str, problems: list[str], seen: list[str], details: dict[str, Any] | None = None) -> Stage:
    """A check's stage: failed with its problems (after its name), or ok with what it saw."""
    if problems:
        return Stage(stage, "failed", f"{stage}: " + "; ".join(problems), details or {})
    return Stage(stage, "ok", "; ".join(seen), details or {})


def check_cluster(config: DistributedConfig, sides: dict[str, ClusterRun]) -> Stage:
    problems, lines = [], []
    for name, side in sides.items():
        summary, files = side_summary(side), side.files
        if (last := side.attempts[-1]).status != "done":
            problems.append(f"{name}: the last attempt ended {last.status}")
        if (summary["final_step"] or 0) < config.steps or (summary["last_checkpoint"] or -1) < config.steps:
            problems.append(f"{name}: reached step {summary['final_step']} and checkpointed step "
                            f"{summary['last_checkpoint']}, short of the last step {config.steps}")
        if not files.one_writer:
            problems.append(f"{name}: event files by {', '.join(files.event_writers)}, worker temp dirs "
                            f"left {files.worker_temp_dirs_left} (one writer, the chief, expected)")
        lines.append(f"{name} ({side.engine}): {attempts_text(side.attempts)}; checkpoints at "
                     f"{summary['last_checkpoint'] if config.replication == 'async' else files.checkpoint_steps}")
    checkpoint_steps = {tuple(side.files.checkpoint_steps) for side in sides.values()}
    if config.replication == "sync" and len(checkpoint_steps) > 1:
        problems.append("the sides checkpointed at different steps: "
                        + "; ".join(f"{n} {s.files.checkpoint_steps}" for n, s in sides.items()))
    return _verdict("cluster", problems, lines, {"sides": {name: side_summary(side) for name, side in sides.items()}})


def check_roles(result: ParityResult) -> Stage:
    return _verdict("roles", [item.divergence_message() for item in result.events if not item.ok],
                    [f"{len(result.events)} roles act alike: "
                     + ", ".join(item.scenario.split(" ")[0] for item in result.events)])


def check_replay(config: DistributedConfig, sides: dict[str, ClusterRun]) -> Stage:
    if config.kill is None:
        return Stage("replay", "not checked", "no fault injected (--kill worker:I@STEP)")
    problems, lines = [], []
    for name, side in sides.items():
        replay, killed = side.replay, [a for a in side.attempts if a.killed]
        if not killed:
            problems.append(f"{name}: no task was killed")
        if replay["mismatched_steps"]:
            problems.append(f"{name}: steps {replay['mismatched_steps']} trained again gave other losses")
        lines.append(f"{name}: {attempts_text(killed)}; {replay['replayed_steps']} step(s) trained again, the same losses")
    return _verdict("replay", problems, lines, {name: side.replay for name, side in sides.items()})


def check_test_metrics(config: DistributedConfig, result: ParityResult, legacy: SideTrace | None,
                       modern: SideTrace | None, evaluations: compare_evaluator.CheckpointEvaluations | None) -> Stage:
    """Stage 5 on the chiefs' test metrics, and the evaluators' per-checkpoint ones when they ran."""
    missing = [name for name, chief in (("legacy", legacy), ("modern", modern)) if not (chief and chief.metrics)]
    if len(missing) == 2 and evaluations is None:
        return Stage("evaluation", "skipped", "neither chief evaluated (the pair gives no eval_input_fn / eval_dataset)")
    if missing:
        return Stage("evaluation", "failed", f"evaluation: no test metrics from the {' and '.join(missing)} chief")
    gap = (compare_async.accuracy_band(config.steps) if config.replication == "async"
           else 0.0 if config.exact else compare_evaluator.MAX_ACCURACY_GAP_INEXACT)
    assert legacy is not None and modern is not None  # both have metrics
    result.metrics = compare_metrics(legacy.metrics, modern.metrics, accuracy_bar=None, max_accuracy_gap=gap)
    stage = check_evaluation(result.metrics)
    if evaluations is not None:
        stage.details["per_checkpoint"] = evaluations.as_dict()
        result.notes.append(evaluations.note())
        if evaluations.problems:
            prefix = "evaluation: " if stage.ok else stage.message + "; "
            stage.status, stage.message = "failed", prefix + "evaluators: " + ", ".join(evaluations.problems)
    return stage


def _async_losses(losses: LossComparison, legacy: ClusterRun, modern: ClusterRun) -> Stage:
    means = [compare_async.tail_mean(side.losses) for side in (legacy, modern)]
    shown = ", ".join(f"{name} {'—' if mean is None else f'{mean:.4f}'}" for name, mean in zip(("legacy", "modern"), means))
    stage = check_n_steps(losses, []) if any(not row.ok for row in losses.rows) else Stage(
        "n-steps", "not checked", f"losses not compared step by step (asynchronous updates); mean over the last 10% "
        f"of steps: {shown}")
    stage.details["final_mean"] = dict(zip(("legacy", "modern"), means))
    return stage


def _sync_losses(config: DistributedConfig, losses: LossComparison) -> Stage:
    """Stage 2 when synchronous: every global step's loss; a first step a factor of N apart is explained."""
    stage = check_n_steps(losses, [])
    first = next(((row.legacy, row.modern) for row in losses.rows if row.legacy is not None and row.modern is not None),
                 None)
    if not stage.ok and first is not None and (hint := replica_scaling_advice(*first, config.workers)):
        stage.message += f"; {hint}"
    return stage


def _actions(trace: SideTrace | None) -> list[Action] | None:
    """A role's actions (None: it wrote no trace)."""
    return None if trace is None else trace.actions


def _comparisons(config: DistributedConfig, result: ParityResult, legacy: ClusterRun, modern: ClusterRun) -> list[Check]:
    """The checks that need both sides: losses, roles, evaluation."""
    losses = result.losses = compare_losses(legacy.losses, modern.losses, loss_schedule(config),
                                            checked=config.replication != "async")
    synchronous = config.replication == "sync"
    for index in range(config.workers):
        left = _actions(legacy.traces.get(index))
        right = _actions(modern.traces.get(index)) if synchronous or index == 0 else []
        task = (" / ".join(dict.fromkeys([legacy.tasks[index], modern.tasks[index]])) if synchronous
                else "legacy worker:0 / modern chief:0 (coordinator)" if index == 0 else legacy.tasks[index])
        result.events.append(compare.compare_role("worker" if index else "chief", task, left, right, config.replication))
    result.events.append(compare.compare_role("ps", "ps:0", [], [], config.replication))
    evaluations = None
    if config.evaluator:
        result.events.append(compare.compare_evaluator_role(_actions(legacy.evaluator) or [],
                                                            _actions(modern.evaluator) or []))
        modern_role = modern.evaluator.role if modern.evaluator is not None else None
        evaluations = compare_evaluator.compare_evaluations(
            legacy.evaluator, modern.evaluator, legacy.files.checkpoint_steps, modern.files.checkpoint_steps,
            config.steps, exact=config.exact,
            full_batches=modern_role is None or modern_role.eval_batches_full is not False)
    n_steps = (lambda: _async_losses(losses, legacy, modern)) if config.replication == "async" else (
        lambda: _sync_losses(config, losses))
    return [("n-steps", TITLES["n-steps"], n_steps), ("roles", TITLES["roles"], lambda: check_roles(result)),
            ("replay", TITLES["replay"], lambda: check_replay(config, {"legacy": legacy, "modern": modern})),
            ("evaluation", TITLES["evaluation"],
             lambda: check_test_metrics(config, result, legacy.chief, modern.chief, evaluations))]


def distributed_result(config: DistributedConfig, sides: dict[str, ClusterRun]) -> ParityResult:
    """The verdict on the sides that ran (`config.sides`): one `ParityResult`, its stages from `run_checks`."""
    versions = {name: dict(side.chief.versions) if side.chief else {} for name, side in sides.items()}
    result = ParityResult(settings(config), versions, [])
    checks: list[Check] = [("cluster", TITLES["cluster"], lambda: check_cluster(config, sides))]
    if set(sides) == {"legacy", "modern"}:
        checks += _comparisons(config, result, sides["legacy"], sides["modern"])
    else:
        checks.append(("replay", TITLES["replay"], lambda: check_replay(config, sides)))
    result.stages = run_checks(checks)
    result.notes.append("actions come from each side's last attempt: a killed process writes no trace (its losses "
                        "survive in the progress files).")
    if config.replication == "async" and config.steps < compare_async.BAND_CALIBRATED_STEPS:
        result.notes.append(
            f"accuracy: reported, not judged — the {compare_async.ACCURACY_BAND * 100:g}-point band is calibrated over "
            f"{compare_async.BAND_CALIBRATED_STEPS} updates or more and this run has {config.steps} (run --steps "
            f"{compare_async.BAND_CALIBRATED_STEPS} or more for the accuracy verdict)")
    return result
