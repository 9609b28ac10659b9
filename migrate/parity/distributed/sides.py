"""The clusters `migrate parity --workers N` launches, as a registry keyed by (side, cluster kind).

The kind is the replication (``--replication sync|async``), or ``estimator``
with ``--evaluator``. Every role program trains the pair of the run (the
built-in MNIST pair or the user's ``--pair FILE``), reading the pair file
and params from a `PairRun` (``--run``).

Synchronous (``--replication sync``, the default):

* legacy — ``python -m legacy.distributed.pair``: 1 ps + N workers (worker 0
  the chief), the pair's `model_fn` under `SyncReplicasOptimizer`; each
  worker reports its own loss on its slice of the global batch, so the
  global batch's loss is their mean;
* modern — ``python -m modern.distributed.pair``: N workers (worker 0 the
  chief), its `build_model` under `MultiWorkerMirroredStrategy`; every
  worker reports the all-reduced mean.

Asynchronous (``--replication async``):

* legacy — ``python -m legacy.distributed.pair --replication async``: 1 ps
  + N workers, each applying its own gradients; a worker reports its loss
  keyed by the global step after its update (two workers may report the same);
* modern — ``python -m modern.distributed.pair_ps``: a coordinator
  (TF_CONFIG's ``chief``), 1 ps and N workers that serve until stopped,
  `ParameterServerStrategy`; the coordinator reports the loss of each
  scheduled step.

The Estimator deployment (``--evaluator``, synchronous):

* legacy — ``python -m legacy.distributed.estimator``: `train_and_evaluate`
  with 1 chief + N-1 workers + 1 ps + 1 evaluator from ``TF_CONFIG``,
  synchronous through `SyncReplicasOptimizer` around the model_fn's optimizer;
* modern — the N `MultiWorkerMirroredStrategy` workers of ``sync`` plus
  ``python -m modern.distributed.sidecar``, the evaluator task.

A side's ``trainers`` are the roles that train and exit (the launcher waits
for them and reads their traces and progress, in order: the first is the
chief); every other role serves until it is stopped. A killed task is either
restarted with the whole cluster (``restart="cluster"``, synchronous: every
step needs every worker) or alone while the others go on (``"task"``).
The ``evaluator`` task (`evaluator_module`) is outside the training cluster
spec; the launcher waits for it too (it stops after the last checkpoint).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from migrate.core.side_trace import Attempt, SideTrace


@dataclass(frozen=True)
class Paths:
    """Where one side's roles read and write (shared by every attempt)."""

    root: Path

    @property
    def model_dir(self) -> Path:
        return self.root / "model"

    def progress(self, task_type: str, index: int, attempt: int) -> Path:
        return self.root / f"progress-{task_type}{index}-attempt{attempt}.jsonl"

    def trace(self, task_type: str, index: int, attempt: int) -> Path:
        return self.root / f"trace-{task_type}{index}-attempt{attempt}.json"

    @property
    def logs(self) -> Path:
        return self.root / "logs"


@dataclass
class ClusterFiles:
    """What a side's cluster left in its model dir: the checkpoints' steps, the event files with the task whose
    process wrote each (``{"file", "pid", "role"}``; ``eval/``'s apart), the worker temp dirs left behind; and
    whether the chief was their one writer."""

    checkpoint_steps: list[int]
    event_files: list[dict[str, Any]]
    event_writers: list[str]
    eval_event_files: list[dict[str, Any]]
    worker_temp_dirs_left: list[str]
    one_writer: bool


@dataclass
class ClusterRun:
    """One side's cluster run, read once every attempt has ended (`run.run_side`): the verdict's input.

    `losses` are the global batches' losses over every attempt; `replay` the steps trained again after a
    restart (`compare.replay_consistency`); `traces` the last attempt's trainer traces by position (0: the chief;
    None: it wrote none), `tasks` their names."""

    engine: str
    tasks: list[str]
    attempts: list[Attempt]
    losses: dict[int, float]
    replay: dict[str, Any]
    traces: dict[int, SideTrace | None]
    files: ClusterFiles
    model_dir: Path
    evaluator: SideTrace | None = None

    @property
    def chief(self) -> SideTrace | None:
        return self.traces.get(0)


def mean_of_worker_losses(per_worker: list[dict[int, float]]) -> dict[int, float]:
    """The global batch's loss from per-worker losses: float32 sum of ``loss_i / n`` in worker order.

    That is what `MultiWorkerMirroredStrategy` all-reduces; for n a power of
    two the division is exact, and for n = 2 the sum has one rounding either
    way, so the result is bit-identical.
    """
    steps = set.intersection(*(set(losses) for losses in per_worker)) if per_worker else set()
    count = np.float32(len(per_worker))
    result = {}
    for step in sorted(steps):
        total = np.float32(0.0)
        for losses in per_worker:
            total = np.float32(total + np.float32(losses[step]) / count)
        result[step] = float(total)
    return result


def merged_worker_losses(per_worker: list[dict[int, float]]) -> dict[int, float]:
    """Asynchronous workers: every worker's (global step, loss) in one curve, averaged where two reported one step."""
    reported: dict[int, list[float]] = {}
    for losses in per_worker:
        for step, loss in losses.items():
            reported.setdefault(step, []).append(loss)
    return {step: float(np.mean(values)) for step, values in sorted(reported.items())}


def chief_losses(per_worker: list[dict[int, float]]) -> dict[int, float]:
    """Every worker holds the all-reduced loss; take the chief's."""
    return dict(per_worker[0]) if per_worker else {}


EVALUATOR = "evaluator"
"""The task type that evaluates the chief's checkpoints; it is not in the training cluster spec."""


@dataclass(frozen=True)
class Side:
    """One side's cluster: which processes, which module, how its losses combine."""

    module: str
    engine: str
    role_counts: Callable[[int], dict[str, int]]
    global_losses: Callable[[list[dict[int, float]]], dict[int, float]]
    writes_initial_weights: bool
    trainers: tuple[str, ...] = ("worker",)
    restart: str = "cluster"
    extra_argv: tuple[str, ...] = ()
    evaluator_module: str | None = None

    def module_of(self, task_type: str) -> str:
        return self.evaluator_module if task_type == EVALUATOR and self.evaluator_module else self.module

    def trainer_tasks(self, counts: dict[str, int]) -> list[tuple[str, int]]:
        """The (task type, index) of every training process, the chief first."""
        return [(task_type, index) for task_type in self.trainers for index in range(counts.get(task_type, 0))]

    @property
    def chief_task(self) -> str:
        return f"{self.trainers[0]}:0"


LEGACY = Side(
    module="legacy.distributed.pair",
    engine="model_fn + SyncReplicasOptimizer + MonitoredTrainingSession (1 ps)",
    role_counts=lambda workers: {"ps": 1, "worker": workers}, global_losses=mean_of_worker_losses,
    writes_initial_weights=True,
)
MODERN = Side(
    module="modern.distributed.pair", engine="build_model + MultiWorkerMirroredStrategy + Keras fit",
    role_counts=lambda workers: {"worker": workers}, global_losses=chief_losses, writes_initial_weights=False,
)
SIDES: dict[tuple[str, str], Side] = {
    ("legacy", "sync"): LEGACY,
    ("modern", "sync"): MODERN,
    ("legacy", "async"): replace(
        LEGACY, engine="model_fn, asynchronous updates + MonitoredTrainingSession (1 ps)",
        global_losses=merged_worker_losses, restart="task", extra_argv=("--replication", "async"),
    ),
    ("modern", "async"): replace(
        MODERN, module="modern.distributed.pair_ps",
        engine="build_model + ParameterServerStrategy + ClusterCoordinator loop (coordinator, 1 ps)",
        role_counts=lambda workers: {"chief": 1, "ps": 1, "worker": workers}, trainers=("chief",), restart="task",
    ),
    ("legacy", "estimator"): replace(
        LEGACY, module="legacy.distributed.estimator",  # its evaluator task too
        engine="model_fn + Estimator train_and_evaluate + SyncReplicasOptimizer (chief, workers, 1 ps, evaluator)",
        role_counts=lambda workers: {"ps": 1, "chief": 1, "worker": workers - 1, EVALUATOR: 1},
        trainers=("chief", "worker"),
    ),
    ("modern", "estimator"): replace(
        MODERN, engine="build_model + MultiWorkerMirroredStrategy + Keras fit, sidecar evaluator",
        role_counts=lambda workers: {"worker": workers, EVALUATOR: 1}, evaluator_module="modern.distributed.sidecar",
    ),
}
"""Each kind of cluster is the synchronous one (`LEGACY`, `MODERN`) with what changes."""
REPLICATIONS = ("sync", "async")
