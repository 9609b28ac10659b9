"""Start a localhost cluster of role processes, watch it, and always stop it.

Every process gets ``TF_CONFIG`` (the cluster spec on free 127.0.0.1 ports and
its own task; an evaluator's task is not in the spec, as TF wants it), its own log file, its own process group and, on Linux, a
parent-death signal, so nothing outlives the launcher: `Cluster` stops every
child on success, on failure, on timeout and on Ctrl-C (SIGTERM, then SIGKILL
after a grace period). Parameter servers never exit by themselves; the cluster
is done when every worker has exited with 0.

Fault injection: `Fault("worker", 1, 15)` SIGKILLs worker 1 once its progress
file (JSON lines ``{"step", "loss"}``) reaches global step 15; started with
``start(fault)``, worker 1 holds there until killed (`ProgressFile`), so the
kill lands at step 15 however busy the machine is. Then either
`wait` returns (the caller restarts the whole cluster: synchronous training,
where every worker is needed for every step), or, with ``restart_killed``,
the killed task alone is started again with the same ``TF_CONFIG`` and
address while the others carry on (asynchronous training: the TF1 chief
keeps training, TF2's coordinator retries the dead worker's steps elsewhere
and the restarted worker rejoins).
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from migrate.core.progress_file import HOLD_ENV

GRACE_SECONDS = 3.0
POLL_SECONDS = 0.05


class ClusterError(Exception):
    """A role process failed (could not start, died, timed out); the message names the side, role and task.

    `role_exit_code` is the failed role's own exit code when it exited (2: it refused its input — the pair, the
    flags, the data — as a usage error; `migrate.core.role_program`), None when it was killed or timed out."""

    def __init__(self, message: str, role_exit_code: int | None = None) -> None:
        super().__init__(message)
        self.role_exit_code = role_exit_code


@dataclass(frozen=True)
class Role:
    """One process of a cluster: task type and index, and the command after the interpreter."""

    task_type: str
    index: int
    argv: tuple[str, ...]
    waited: bool = True
    progress: Path | None = None

    @property
    def name(self) -> str:
        return f"{self.task_type} {self.index}"


@dataclass(frozen=True)
class Fault:
    """SIGKILL `task_type` `index` when its progress reaches `step`."""

    task_type: str
    index: int
    step: int

    @classmethod
    def parse(cls, text: str) -> Fault:
        """``worker:1@15`` → kill worker 1 at global step 15."""
        try:
            task, step = text.split("@")
            task_type, index = task.split(":")
            fault = cls(task_type, int(index), int(step))
        except ValueError as error:
            raise ValueError(f"--kill expects TASK:INDEX@STEP such as worker:1@15, got {text!r}") from error
        if fault.step < 1 or fault.index < 0:
            raise ValueError(f"--kill {text!r}: the index must be >= 0 and the step >= 1")
        return fault


@dataclass
class Outcome:
    """How a cluster run ended: "done", or "killed" with the injected fault and the step it hit (a task killed and
    restarted alone: "done", with the fault)."""

    status: str
    seconds: float
    killed: Fault | None = None
    killed_at_step: int | None = None
    pids: dict[str, int] = field(default_factory=dict)
    killed_at_time: float | None = None
    killed_pid: int | None = None


def free_ports(count: int, host: str = "127.0.0.1") -> list[int]:
    """`count` distinct ports the OS reports free now (held open together so they differ)."""
    with contextlib.ExitStack() as open_sockets:  # closes every socket made, however it ends
        sockets = [open_sockets.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) for _ in range(count)]
        for sock in sockets:
            sock.bind((host, 0))
        return [sock.getsockname()[1] for sock in sockets]


def cluster_spec(counts: dict[str, int], ports: list[int], host: str = "127.0.0.1") -> dict[str, list[str]]:
    """``{"ps": ["127.0.0.1:p0"], "worker": [...]}`` from role counts and ports, in that order."""
    spec, position = {}, 0
    for task_type, count in counts.items():
        spec[task_type] = [f"{host}:{port}" for port in ports[position:position + count]]
        position += count
    return spec


def progress_records(path: Path | None) -> list[dict[str, Any]]:
    """The complete lines of a progress file, each with its ``step`` (none when there is no file yet); a line cut
    short by SIGKILL is skipped."""
    records = []
    for line in path.read_text(encoding="utf-8").splitlines() if path is not None and path.exists() else []:
        try:
            record = json.loads(line)
            records.append({**record, "step": int(record["step"])})
        except (ValueError, KeyError, TypeError):
            continue
    return records


def last_progress_step(path: Path | None) -> int:
    """The last global step in a progress file (0 when there is none yet)."""
    return next((record["step"] for record in reversed(progress_records(path))), 0)


def _die_with_parent() -> None:
    """In the child: receive SIGKILL when the launcher dies (Linux), so no server is orphaned."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def log_tail(path: Path, lines: int = 6) -> str:
    """The last meaningful lines of a role's log (TensorFlow's deprecation noise skipped)."""
    if not path.exists():
        return "(no output)"
    kept = [line for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
            if line.strip() and "deprecat" not in line.lower() and "Instructions for updating" not in line]
    return "\n".join(kept[-lines:]) or "(no output)"


class Cluster(contextlib.AbstractContextManager["Cluster"]):
    """The processes of one side's cluster; a context manager (entering gives the cluster) that always stops them.

    Args:
        side: "legacy" or "modern", for messages and log names.
        python: the interpreter that runs the roles.
        spec: the cluster spec every ``TF_CONFIG`` carries.
        roles: one `Role` per process.
        workdir: where the per-role logs go.
        timeout: seconds the whole run may take.
        env: extra environment for every role.
    """

    def __init__(self, side: str, python: str, spec: dict[str, list[str]], roles: list[Role], workdir: Path,
                 timeout: float, env: dict[str, str] | None = None) -> None:
        self.side, self.python, self.spec, self.roles = side, python, spec, roles
        self.workdir, self.timeout, self.env = workdir, timeout, dict(env or {})
        self.processes: dict[Role, subprocess.Popen[bytes]] = {}
        self.logs: dict[Role, Path] = {}

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def address(self, role: Role) -> str | None:
        """The role's host:port in the cluster spec; None for a task outside it (an evaluator)."""
        addresses = self.spec.get(role.task_type, [])
        return addresses[role.index] if role.index < len(addresses) else None

    def check_ports(self) -> None:
        """Every address must be bindable now: name the role whose port another process holds."""
        for role in self.roles:
            if (address := self.address(role)) is None:  # an evaluator: outside the cluster spec
                continue
            host, port = address.rsplit(":", 1)
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                try:
                    sock.bind((host, int(port)))
                except OSError as error:
                    raise ClusterError(
                        f"{self.side} {role.name}: port {host}:{port} is already taken ({error.strerror}); nothing "
                        "was started. Run again to pick other free ports, or stop the process holding it."
                    ) from error

    def start(self, fault: Fault | None = None) -> None:
        """Start every role (after checking the ports); a role that then fails to start is reported by `wait`.

        The task `fault` will kill is told to hold once it has reported the
        fault's step (`HOLD_ENV`), so `wait(fault)` kills it at that step
        exactly, not one poll later on a busy machine.
        """
        self.check_ports()
        self.workdir.mkdir(parents=True, exist_ok=True)
        for role in self.roles:
            targeted = fault is not None and (role.task_type, role.index) == (fault.task_type, fault.index)
            self._spawn(role, {HOLD_ENV: str(fault.step)} if fault is not None and targeted else {})

    def _spawn(self, role: Role, extra_env: dict[str, str] | None = None) -> None:
        env = {**os.environ, **self.env, **(extra_env or {}),
               "TF_CONFIG": json.dumps({"cluster": self.spec, "task": {"type": role.task_type, "index": role.index}})}
        log = self.workdir / f"{self.side}-{role.task_type}{role.index}.log"
        self.logs[role] = log
        with open(log, "ab") as handle:
            self.processes[role] = subprocess.Popen(
                [self.python, *role.argv], env=env, stdout=handle, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
                preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            )

    def pids(self) -> dict[str, int]:
        return {f"{role.task_type}:{role.index}": process.pid for role, process in self.processes.items()}

    def _failure(self, role: Role, code: int) -> ClusterError:
        how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
        address = self.address(role) or "outside the training cluster"
        return ClusterError(
            f"{self.side} {role.name} ({address}) {how}; every other process was stopped. "
            f"Its log ({self.logs[role]}) ends with:\n{log_tail(self.logs[role])}",
            role_exit_code=code if code > 0 else None,
        )

    def wait(self, fault: Fault | None = None, cancel: threading.Event | None = None,
             restart_killed: bool = False) -> Outcome:
        """Until every waited role exits 0 ("done") or `fault` fires ("killed"); raises `ClusterError` otherwise.

        With `restart_killed` the killed task is started again at once and the
        wait goes on: the outcome is "done", with the fault recorded.
        `cancel` set by another thread (the other side failed, Ctrl-C) stops the wait with a `ClusterError`.
        """
        began = time.monotonic()
        hit: dict[str, Any] | None = None
        while True:
            if cancel is not None and cancel.is_set():
                raise ClusterError(f"{self.side}: stopped because the other side failed or was interrupted.")
            for role, process in self.processes.items():
                code = process.poll()
                if code is not None and (code != 0 or not role.waited):
                    raise self._failure(role, code)
            if all(process.poll() == 0 for role, process in self.processes.items() if role.waited):
                return Outcome("done", time.monotonic() - began, pids=self.pids(), **(hit or {}))
            if fault is not None:
                target = next((r for r in self.processes if (r.task_type, r.index) == (fault.task_type, fault.index)), None)
                if target is None:
                    raise ClusterError(f"--kill names {fault.task_type} {fault.index}, which the {self.side} cluster does not have.")
                step = last_progress_step(target.progress)
                if step >= fault.step:
                    self.processes[target].send_signal(signal.SIGKILL)
                    self.processes[target].wait()
                    hit = {"killed": fault, "killed_at_step": step, "killed_at_time": time.time(),
                           "killed_pid": self.processes[target].pid}
                    if not restart_killed:
                        return Outcome("killed", time.monotonic() - began, pids=self.pids(), **hit)
                    fault = None
                    self._spawn(target)
            if time.monotonic() - began > self.timeout:
                running = [role.name for role, process in self.processes.items() if process.poll() is None and role.waited]
                raise ClusterError(
                    f"{self.side}: {', '.join(running)} still running after {self.timeout:.0f} s; every process was "
                    f"stopped. Logs are in {self.workdir}."
                )
            time.sleep(POLL_SECONDS)

    def stop(self) -> None:
        """SIGTERM every live process group, SIGKILL what is left after the grace period."""
        live = [process for process in self.processes.values() if process.poll() is None]
        for process in live:
            _signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + GRACE_SECONDS
        for process in live:
            try:
                process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal_group(process, signal.SIGKILL)
                process.wait()


def _signal_group(process: subprocess.Popen[bytes], signum: int) -> None:
    try:
        os.killpg(process.pid, signum)
    except (ProcessLookupError, PermissionError):
        pass
