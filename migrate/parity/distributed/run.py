"""One distributed parity run: write the pair run, run each side's cluster (restarting after an injected fault), compare.

Both sides train the run's pair (its `PairRun`: the built-in MNIST pair or
the user's) synchronously on the same global batches split the same way
across workers, from the same initial weights (the legacy chief's step-0
variables, copied). A fault (`--kill worker:1@15`) SIGKILLs that worker on
each side once it reaches the step;
the launcher then stops the rest of the cluster and starts it again, and the
cluster resumes from its last save — TF1: the chief's `MonitoredTrainingSession`
restores its newest checkpoint; TF2: Keras' `BackupAndRestore` restores the
chief's backup (taken at the checkpoint steps) on every worker — with the data
position kept: global step s always trains on global batch s. Steps trained
after the last save are lost and trained again; the replayed losses must be
the same.

``replication="async"`` runs the asynchronous clusters instead (TF1 workers
applying their own gradients vs `ParameterServerStrategy` with a
coordinator, see `sides`), compared statistically by `compare_async`; there a
killed worker is restarted alone while the rest of the cluster trains on.
"""
from __future__ import annotations

import shutil
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from migrate.core.namespace import ROLE_PATH_ENV
from migrate.core.side_trace import Attempt, SideTrace, SideTraceError, read_side_trace
from migrate.parity.distributed import cluster, compare
from migrate.parity.distributed.config import DistributedConfig
from migrate.parity.distributed.report import attempt_text
from migrate.parity.distributed.sides import EVALUATOR, SIDES, ClusterFiles, ClusterRun, Paths, Side
from migrate.parity.distributed.verdict import distributed_result
from migrate.parity.result import ParityResult

Progress = Callable[[str], None]
ROLE_ENV = {"TF_ENABLE_ONEDNN_OPTS": "0", "TF_CPP_MIN_LOG_LEVEL": "2"}


def latest_checkpoint_step(model_dir: Path) -> int | None:
    """The step of the checkpoint the ``checkpoint`` state file names (TF-free), None without one."""
    state = model_dir / "checkpoint"
    if not state.exists():
        return None
    for line in state.read_text(encoding="utf-8").splitlines():
        if line.startswith("model_checkpoint_path:"):
            return int(line.split('"')[1].rsplit("-", 1)[1])
    return None


def read_losses(path: Path) -> dict[int, float]:
    return {record["step"]: float(record["loss"]) for record in cluster.progress_records(path)}


def side_spec(side: str, config: DistributedConfig) -> Side:
    return SIDES[side, config.cluster]


def _role_argv(side: str, config: DistributedConfig, paths: Paths, task_type: str, index: int, attempt: int,
               run_path: Path, initial_weights: Path) -> tuple[str, ...]:
    """A role's command after the interpreter: every trainer and the evaluator read the pair run (``--run``)."""
    spec_of = side_spec(side, config)
    argv = ["-m", spec_of.module_of(task_type), "--model-dir", str(paths.model_dir)]
    if task_type not in (*spec_of.trainers, EVALUATOR):
        return tuple(argv)
    argv += ["--run", str(run_path), "--steps", str(config.steps), "--trace", str(paths.trace(task_type, index, attempt)),
             "--progress", str(paths.progress(task_type, index, attempt))]
    if task_type == EVALUATOR:
        return (*argv, "--eval-timeout", str(config.timeout))
    argv += [*spec_of.extra_argv, "--save-checkpoints-steps", str(config.save_every),
             "--log-step-count-steps", str(config.log_every)]
    if spec_of.writes_initial_weights and f"{task_type}:{index}" == spec_of.chief_task:
        argv += ["--initial-weights-out", str(initial_weights)]
    elif not spec_of.writes_initial_weights and initial_weights.exists():
        argv += ["--initial-weights", str(initial_weights)]
    return tuple(argv)


def event_files(directory: Path, writer_pids: dict[int, str]) -> list[dict[str, Any]]:
    """The event files of `directory` with the task whose process wrote each."""
    events = []
    for path in sorted(directory.glob("events.out.tfevents.*")):
        # TF2 writers name files <time>.<host>.<pid>.<n>.v2; TF1's FileWriter <time>.<host>, without the pid.
        parts = path.name.split(".")
        pid = int(parts[-3]) if parts[-1] == "v2" and parts[-3].isdigit() else None
        role = "unattributed (no pid in a TF1 event file name)" if pid is None else writer_pids.get(pid, "unknown")
        events.append({"file": path.name, "pid": pid, "role": role})
    return events


def files_written(model_dir: Path, writer_pids: dict[int, str]) -> ClusterFiles:
    """Checkpoints, event files (with the role whose process wrote each) and worker temp dirs left behind."""
    checkpoints = sorted(int(path.name[len("model.ckpt-"):-len(".index")]) for path in model_dir.glob("model.ckpt-*.index"))
    events = event_files(model_dir, writer_pids)
    leftovers = sorted(path.relative_to(model_dir).as_posix() for path in model_dir.rglob("*workertemp_*"))
    writers = sorted({event["role"] for event in events})
    one_writer = all(writer == "chief" or writer.startswith("unattributed") for writer in writers) and not leftovers
    return ClusterFiles(checkpoints, events, writers, event_files(model_dir / "eval", writer_pids), leftovers, one_writer)


def steps_by_process(paths: list[Path], names: dict[int, str]) -> dict[str, int]:
    """How many steps each process ran, from the ``pid`` of every progress line; `names` maps pids to tasks."""
    counts = Counter(names.get(int(record["pid"]), f"pid {record['pid']}") for path in paths
                     for record in cluster.progress_records(path) if record.get("pid") is not None)
    return dict(sorted(counts.items()))


def read_timeline(path: Path) -> list[tuple[int, float]]:
    """(step, time) of every complete line of a progress file."""
    return [(record["step"], float(record["time"])) for record in cluster.progress_records(path)]


def steps_lost_after(timelines: list[list[tuple[int, float]]], killed_at: float) -> tuple[int, int | None, int]:
    """Asynchronous fault: the furthest step before the kill, the chief's first step after it, the steps trained again.

    The ps keeps the variables, so training should go on from where it was:
    in each progress file (one per training task, the restarted task
    appending to its own) a step at or below one reported before the kill
    would be lost work. Files are compared with themselves only: two
    workers' lines cross (a worker reads the global step after its own
    update, another's may land in between and be written first).
    """
    lost = 0
    for timeline in timelines:
        before = [step for step, moment in timeline if moment <= killed_at]
        after = [step for step, moment in timeline if moment > killed_at]
        if before and after:
            lost = max(lost, max(before) - min(after) + 1)
    reached = max((step for timeline in timelines for step, moment in timeline if moment <= killed_at), default=0)
    chief_after = [step for step, moment in (timelines[0] if timelines else []) if moment > killed_at]
    return reached, min(chief_after, default=None), lost


def run_side(side: str, config: DistributedConfig, run_path: Path, root: Path, initial_weights: Path,
             progress: Progress, cancel: threading.Event | None = None) -> ClusterRun:
    """Run one side's cluster to the last step; what it wrote and reported.

    A fault either restarts the whole cluster from the chief's checkpoint (a
    second attempt: synchronous sides) or only the killed task (asynchronous
    sides: one attempt, the rest of the cluster trains on).
    """
    spec_of = side_spec(side, config)
    paths = Paths(root / side)
    paths.model_dir.mkdir(parents=True, exist_ok=True)
    python = config.pythons.get(side, sys.executable)
    env = {**ROLE_ENV, **ROLE_PATH_ENV}  # the toolkit's legacy/modern, never a same-named package in the cwd
    attempts: list[Attempt] = []
    attempt_losses: list[dict[int, float]] = []
    counts = {task_type: count for task_type, count in spec_of.role_counts(config.workers).items() if count}
    trainers = spec_of.trainer_tasks(counts)
    restart_task = spec_of.restart == "task"
    training_counts = {task_type: count for task_type, count in counts.items() if task_type != EVALUATOR}
    exits = (*spec_of.trainers, EVALUATOR)
    for attempt in range(2 if config.kill is not None and not restart_task else 1):
        spec = cluster.cluster_spec(training_counts, cluster.free_ports(sum(training_counts.values())))
        # a serving role's progress is the chief's: a ps-strategy worker reports nothing itself
        roles = [
            cluster.Role(task_type, index,
                         _role_argv(side, config, paths, task_type, index, attempt, run_path, initial_weights),
                         waited=task_type in exits,
                         progress=paths.progress(*((task_type, index) if task_type in exits else trainers[0]), attempt))
            for task_type, count in counts.items() for index in range(count)
        ]
        progress(f"[{side}] {spec_of.engine}: {', '.join(f'{n} {t}' for t, n in counts.items())}"
                 f"{' (restart)' if attempt else ''}")
        with cluster.Cluster(side, python, spec, roles, paths.logs, config.timeout, env) as processes:
            fault = config.kill if attempt == 0 else None
            processes.start(fault)
            outcome = processes.wait(fault, cancel, restart_killed=restart_task)
        record = Attempt(attempt, outcome.status, round(outcome.seconds, 2), dict(outcome.pids))
        _record_fault(record, side, outcome, paths, roles, trainers, progress)
        attempts.append(record)
        per_trainer = [read_losses(paths.progress(task_type, index, attempt)) for task_type, index in trainers]
        attempt_losses.append(spec_of.global_losses(per_trainer))
    return _side_record(spec_of, paths, counts, trainers, attempts, attempt_losses)


def _record_fault(record: Attempt, side: str, outcome: cluster.Outcome, paths: Paths, roles: list[cluster.Role],
                  trainers: list[tuple[str, int]], progress: Progress) -> None:
    """What a fault did to the attempt `record`: a whole-cluster restart's resume point, or a task restarted alone
    and the steps that cost (nothing without a fault); said as the report says it."""
    if outcome.killed is None:
        return
    killed = record.killed = f"{outcome.killed.task_type}:{outcome.killed.index}"
    record.killed_at_step = outcome.killed_at_step
    if outcome.status == "killed":
        # The chief may finish the step in flight after the kill: the cluster's last step is the furthest progress.
        reached = max(cluster.last_progress_step(role.progress) for role in roles if role.progress is not None)
        resumed = latest_checkpoint_step(paths.model_dir)
        record.cluster_step, record.resumes_from_checkpoint, record.steps_lost = reached, resumed, reached - (resumed or 0)
    elif outcome.killed_at_time is not None:  # the task was restarted alone
        progress_files = [paths.progress(task_type, index, record.attempt) for task_type, index in trainers]
        record.restarted_alone = True
        record.cluster_step, record.first_step_after_kill, record.steps_lost = steps_lost_after(
            [read_timeline(path) for path in progress_files], outcome.killed_at_time)
        names = {pid: task for task, pid in outcome.pids.items()}
        names[outcome.pids[killed]] = f"{killed} (restarted)"
        if outcome.killed_pid is not None:
            names[outcome.killed_pid] = f"{killed} (killed)"
        record.steps_by_process = steps_by_process(progress_files, names)
    progress(f"[{side}] {attempt_text(record)}")


def _side_record(spec_of: Side, paths: Paths, counts: dict[str, int], trainers: list[tuple[str, int]],
                 attempts: list[Attempt], attempt_losses: list[dict[int, float]]) -> ClusterRun:
    """What a side's cluster ran and wrote, read once every attempt has ended: the verdict's input; each file is
    attributed to the task whose process (of any attempt) wrote it."""
    last = len(attempts) - 1
    writers = {pid: "chief" if task == spec_of.chief_task else task for attempt in attempts for task, pid in attempt.pids.items()}
    losses = {step: loss for attempt_loss in attempt_losses for step, loss in attempt_loss.items()}  # the last wins
    return ClusterRun(
        spec_of.engine, [f"{task_type}:{index}" for task_type, index in trainers], attempts, losses,
        compare.replay_consistency(attempt_losses),
        {position: _role_trace(paths.trace(task_type, index, last)) for position, (task_type, index) in enumerate(trainers)},
        files_written(paths.model_dir, writers), paths.model_dir,
        _role_trace(paths.trace(EVALUATOR, 0, last)) if EVALUATOR in counts else None)


def _role_trace(path: Path) -> SideTrace | None:
    """The `SideTrace` a role wrote (None: it wrote none — a killed process, a ps); a malformed one is a failure."""
    if not path.exists():
        return None
    try:
        return read_side_trace(path)
    except SideTraceError as error:
        raise cluster.ClusterError(f"{path} is not the trace a role program writes: {error}") from error


def run_distributed(config: DistributedConfig, workdir: Path,
                    progress: Progress = print) -> tuple[ParityResult, dict[str, ClusterRun]]:
    """Run the configured sides in `workdir` (emptied first): the verdict (`verdict.distributed_result`) and what
    each side's cluster ran and wrote (`run_side`)."""
    config.check()
    if workdir.exists():
        shutil.rmtree(workdir)
    run_path = config.run.write(workdir / "pair-run.json")
    initial_weights = workdir / "initial-weights.npz"
    if set(config.sides) == {"legacy", "modern"}:
        sides = _run_both(config, run_path, workdir, initial_weights, progress)
    else:
        sides = {side: run_side(side, config, run_path, workdir, initial_weights, progress) for side in config.sides}
    return distributed_result(config, sides), sides


def _run_both(config: DistributedConfig, run_path: Path, workdir: Path, initial_weights: Path,
              progress: Progress) -> dict[str, ClusterRun]:
    """Legacy in a thread, modern as soon as the legacy chief has written the step-0 weights it copies.

    The clusters overlap (most of a short run is process start-up), and a
    failure or Ctrl-C on either side stops both.
    """
    cancel = threading.Event()
    results: dict[str, ClusterRun] = {}
    errors: list[BaseException] = []

    def legacy() -> None:
        try:
            results["legacy"] = run_side("legacy", config, run_path, workdir, initial_weights, progress, cancel)
        except BaseException as error:  # re-raised in the main thread
            errors.append(error)
            cancel.set()

    thread = threading.Thread(target=legacy, name="legacy-cluster")
    thread.start()
    try:
        while not initial_weights.exists() and thread.is_alive():
            time.sleep(0.1)
        if initial_weights.exists():
            results["modern"] = run_side("modern", config, run_path, workdir, initial_weights, progress, cancel)
    except BaseException as error:
        cancel.set()
        thread.join()
        if errors and isinstance(error, cluster.ClusterError):  # the legacy failure stopped the modern side:
            raise errors[0] from None  # name the task that failed, not the stop
        raise
    thread.join()
    if errors:
        raise errors[0]
    if "modern" not in results:
        raise cluster.ClusterError(
            f"legacy {side_spec('legacy', config).chief_task} (the chief) finished without writing the step-0 weights "
            f"({initial_weights}) the modern side starts from; see its log in {workdir / 'legacy' / 'logs'}.")
    return {"legacy": results["legacy"], "modern": results["modern"]}
