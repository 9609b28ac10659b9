"""The one way to write a cluster role program: its `main`, its errors, its exit codes and its trace file.

A role program is one process of a distributed run (``python -m
legacy.distributed.pair``, ``legacy.distributed.estimator``,
``modern.distributed.pair``, ``modern.distributed.pair_ps``,
``modern.distributed.sidecar``): its role comes
from ``TF_CONFIG``, its flags from the launcher (`migrate.parity.distributed`)
or a user starting it by hand. Each declares a `RoleProgram` and its `main` is
``PROGRAM.main``, so all five answer alike, on the exit
codes of the CLI kit (`migrate.core.cli`):

    0   the role did its part
    1   the cluster failed around it (`RoleFailed`: the chief never
        initialised the variables, no checkpoint arrived in time)
    2   usage error (`RoleError`, or argparse's own: bad flags, ``TF_CONFIG``
        without the role, unreadable data, a port already taken)
    70  internal error: anything else, with its traceback in a crash log
    130 interrupted

Every message goes to stderr, prefixed with the program and its task
(``legacy.distributed.pair (worker 1): error: ...``). A role's report is one
`migrate.core.side_trace.SideTrace` (`RoleRecord.trace`), written whole or not at all
with `write_side_trace` and read back by the launcher, once the process has
exited 0, with `read_side_trace`. The kit is TF-free (`start_server` and
`serve`, the task's server, import TensorFlow when called); the programs
import it at their top.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from migrate.core.cli import CommandFailed, UsageError, exit_code_of
from migrate.core.progress_file import ProgressFile
from migrate.core.side_trace import Action, Evaluation, Role, SideTrace
from migrate.core.tf_config import task_name


class RoleError(UsageError):
    """Bad ``TF_CONFIG``, flags, data or a server that cannot start: exit code 2."""


class RoleFailed(CommandFailed):
    """The cluster around this role failed (a peer never came, nothing to evaluate in time): exit code 1."""


class RoleProgram(NamedTuple):
    """A role program: ``python -m <module>``, its one-line description, its flags and its body.

    `run(args, environ)` returns the exit code (0 when the role did its part)
    or raises `RoleError` / `RoleFailed`; `environ` is the process's
    environment, read once (``TF_CONFIG``)."""

    module: str
    description: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, dict[str, str]], int]

    def parser(self) -> argparse.ArgumentParser:
        parser = argparse.ArgumentParser(prog=f"python -m {self.module}", description=self.description)
        self.configure(parser)
        return parser

    def main(self, argv: Sequence[str] | None = None) -> int:
        """Parse `argv` and run in this process's environment; the exit code (module doc), never an exception."""
        try:
            args = self.parser().parse_args(argv)
        except SystemExit as exit_request:  # argparse printed the usage error (or --help) already
            return int(exit_request.code or 0)
        environ = dict(os.environ)
        return exit_code_of(f"{self.module} ({task_name(environ)})", lambda: self.run(args, environ))


def add_role_flags(parser: argparse.ArgumentParser, *, trains: bool = True) -> None:
    """The flags the launcher gives every role program: where the chief writes, the pair run, the last global step,
    the trace and the progress file (`require_run` checks a role that trains or evaluates got them); with `trains`,
    the checkpoint and summary intervals."""
    parser.add_argument("--model-dir", required=True, type=Path, help="the chief's checkpoints and summaries")
    parser.add_argument("--run", type=Path, help="the pair run (JSON: pair file, params) the launcher wrote")
    parser.add_argument("--steps", type=int, default=100, help="the global step to train to (or evaluate up to)")
    parser.add_argument("--trace", type=Path, help="where the role writes its trace (JSON) when it is done")
    parser.add_argument("--progress", type=Path, help="JSON lines, one per step or evaluation, flushed as they come")
    if trains:
        parser.add_argument("--save-checkpoints-steps", type=int, default=10)
        parser.add_argument("--log-step-count-steps", type=int, default=10)


def require_run(args: argparse.Namespace, who: str) -> None:
    """A role that trains or evaluates (`who`: "a worker") needs the pair run and a trace path: `RoleError` if not."""
    if args.run is None or args.trace is None:
        raise RoleError(f"{who} needs --run and --trace.")


def start_server(cluster: Mapping[str, list[str]], task_type: str, index: int,
                 start: Callable[[], Any] | None = None) -> Any:
    """This task's `tf.distribute.Server`, started (TensorFlow is imported here), or what `start` makes, which starts
    it (a `MultiWorkerMirroredStrategy`); a `RoleError` naming the address when it cannot start."""
    import tensorflow as tf

    try:
        if start is not None:
            return start()
        return tf.distribute.Server(tf.train.ClusterSpec(dict(cluster)), job_name=task_type, task_index=index, start=True)
    except (tf.errors.OpError, RuntimeError, ValueError) as error:
        message = getattr(error, "message", str(error))
        raise RoleError(f"could not start the server of {task_type} {index} at {cluster[task_type][index]} "
                        f"({message.strip()}); is the port already taken?") from error


def summary_events(directory: Path) -> list[tuple[int, set[str]]]:
    """(global step, tags) of every summary event in `directory`'s event files (not its subdirectories), in step
    order: one event per summary op run, by TF1's `FileWriter` or a TF2 writer (TensorFlow is imported here).

    What a role reads back to record which summaries were written: the TF1
    chief's `SummarySaverHook` (the loss scalar) and `StepCounterHook`
    (``global_step/sec`` alone), an evaluator's every metric of one evaluation.
    """
    import tensorflow as tf

    found = []
    for path in sorted(directory.glob("events.out.tfevents.*")):
        found += [(event.step, {value.tag for value in event.summary.value})
                  for event in tf.compat.v1.train.summary_iterator(str(path)) if event.summary.value]
    return sorted(found, key=lambda item: item[0])


def serve(cluster: Mapping[str, list[str]], task_type: str, index: int) -> int:
    """A ps, or a worker that runs what a coordinator schedules: serve until the launcher stops this process."""
    server = start_server(cluster, task_type, index)
    print(f"{task_type} {index} serving at {cluster[task_type][index]}", file=sys.stderr, flush=True)
    server.join()
    return 0


@dataclass
class RoleRecord:
    """What a role program records while it runs, and its trace at the end (`trace`).

    Each step's loss is also a line of the progress file (``--progress``),
    which the launcher watches and a SIGKILL leaves behind; the actions are
    which hook or callback acted at which global step, recorded in any order;
    the evaluations are an evaluator's, one per checkpoint.
    """

    progress: ProgressFile
    losses: dict[int, float] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    evaluations: list[Evaluation] = field(default_factory=list)

    def act(self, by: str, step: int) -> None:
        self.actions.append(Action(by, int(step)))

    def loss(self, step: int, value: float, **extra: object) -> None:
        """Step `step`'s loss, kept and appended to the progress file with `extra` (e.g. the process that ran it)."""
        self.losses[int(step)] = float(value)
        self.progress.write({"step": int(step), "loss": float(value), "time": time.time(), **extra})

    def evaluated(self, step: int, metrics: dict[str, float], checkpoint: str) -> None:
        """An evaluation of the checkpoint of global step `step`: kept, an ``Evaluation`` action, a progress line."""
        self.evaluations.append(Evaluation(step, metrics, checkpoint))
        self.act("Evaluation", step)
        self.progress.write({"step": step, **metrics, "checkpoint": checkpoint, "time": time.time()})

    def trace(self, side: str, role: Role, versions: Mapping[str, str],
              metrics: Mapping[str, float] | None = None) -> SideTrace:
        """The role's `SideTrace`: its losses by step, its actions in step order, its metrics (None: it evaluated
        nothing) with the global step they were taken at (the role's final step) and its evaluations."""
        return SideTrace(side, versions=dict(versions), losses=dict(sorted(self.losses.items())),
                         steps_run=len(self.losses), actions=sorted(self.actions, key=lambda a: (a.step, a.by)),
                         metrics={} if metrics is None else {**metrics, "global_step": role.final_step},
                         evaluations=list(self.evaluations), role=role)
