"""What `migrate parity --workers N` runs (`DistributedConfig`) and the check that it can work."""
from __future__ import annotations

from dataclasses import dataclass, field

from migrate.parity.distributed.cluster import Fault
from migrate.parity.distributed.pair_run import PairRun
from migrate.parity.distributed.sides import REPLICATIONS, SIDES


class DistributedConfigError(ValueError):
    """A distributed parity setting that cannot work; the message says which and why."""


@dataclass(frozen=True)
class DistributedConfig:
    """What `migrate parity --workers N` runs: the pair run (`PairRun`: pair, params, steps, global batch, seed) on
    which clusters; the defaults are the command's."""

    run: PairRun
    workers: int = 2
    save_steps: int | None = None
    """Checkpoint every N steps (None: a quarter of the steps)."""
    log_steps: int | None = None
    """Summaries, step rate and log lines every N steps (None: a quarter of the steps)."""
    kill: Fault | None = None
    timeout: float = 600.0
    sides: tuple[str, ...] = ("legacy", "modern")
    pythons: dict[str, str] = field(default_factory=dict)
    replication: str = "sync"
    evaluator: bool = False

    @property
    def steps(self) -> int:
        return self.run.steps

    @property
    def save_every(self) -> int:
        return self.save_steps or max(1, self.steps // 4)

    @property
    def log_every(self) -> int:
        return self.log_steps or max(1, self.steps // 4)

    @property
    def cluster(self) -> str:
        """The cluster kind, the `SIDES` key: the replication, or ``estimator`` with an evaluator."""
        return "estimator" if self.evaluator else self.replication

    def check(self) -> None:
        problems = []
        if self.workers < 1:
            problems.append(f"--workers must be at least 1, got {self.workers}")
        elif self.run.global_batch_size % self.workers:
            problems.append(f"--batch-size {self.run.global_batch_size} (the global batch) must split evenly over "
                            f"{self.workers} workers")
        if self.steps < 1 or self.save_every < 1 or self.log_every < 1:
            problems.append("--steps, --save-checkpoints-steps and --log-step-count-steps must be positive")
        if self.kill is not None:
            if self.kill.task_type != "worker" or self.kill.index >= self.workers:
                problems.append(f"--kill {self.kill.task_type}:{self.kill.index}: only worker:0 … "
                                f"worker:{self.workers - 1} exist on both sides")
            elif self.replication == "async" and self.kill.index == 0:
                problems.append("--kill worker:0 with --replication async: worker 0 is the TF1 chief, whose "
                                "counterpart is the TF2 coordinator, not a worker; kill worker:1 … "
                                f"worker:{self.workers - 1} (asynchronous training goes on without them)")
            if self.kill.step >= self.steps:
                problems.append(f"--kill at step {self.kill.step} must be before the last step {self.steps}")
        if self.evaluator and self.replication != "sync":
            problems.append("--evaluator runs the synchronous Estimator cluster; it cannot be combined with "
                            f"--replication {self.replication}")
        if self.evaluator and self.kill is not None:
            problems.append("--kill cannot be combined with --evaluator: the Estimator cluster's fault story is not "
                            "covered (the evaluator would have to follow the restarted chief)")
        if self.replication not in REPLICATIONS:
            problems.append(f"--replication {self.replication!r}: choose from {', '.join(REPLICATIONS)}")
        else:
            unknown = [side for side in self.sides if (side, self.cluster) not in SIDES]
            if unknown:
                problems.append(f"unknown side(s) {unknown}; choose from {sorted({name for name, _ in SIDES})}")
        if problems:
            raise DistributedConfigError("; ".join(problems))

    @property
    def exact(self) -> bool:
        """Bit-identical losses are expected when dividing by the worker count is exact (a power of two) and the
        pair names no rounding schedule (`PairRun.schedule`)."""
        return self.workers & (self.workers - 1) == 0 and self.run.schedule in (None, "exact")
