"""Reading ``TF_CONFIG``: the cluster spec and this process's task, shared by both distributed sides.

Each side then checks the roles it needs (the TF1 cluster a ps and workers,
ParameterServerStrategy a chief too, MultiWorkerMirroredStrategy workers
only) with `require_roles` and `require_task_in_cluster`, so every role
process words a bad ``TF_CONFIG`` the same way; `task_name` names the task in
their error lines.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from migrate.core.cli import UsageError


class TfConfigError(UsageError):
    """``TF_CONFIG`` is missing or is not a cluster spec with a task, or lacks a role: a usage error (exit 2)."""


def read_tf_config(environ: Mapping[str, str]) -> tuple[dict[str, list[str]], str, int]:
    """(cluster, task type, task index) from ``TF_CONFIG``."""
    text = environ.get("TF_CONFIG")
    if not text:
        raise TfConfigError("TF_CONFIG is not set; the launcher sets it to the cluster spec and this process's task.")
    try:
        config = json.loads(text)
        cluster, task = config["cluster"], config["task"]
        return cluster, task["type"], int(task["index"])
    except (ValueError, KeyError, TypeError) as error:
        raise TfConfigError(f"TF_CONFIG {text!r} is not a cluster spec with a task ({error!r}).") from error


def require_roles(cluster: Mapping[str, list[str]], roles: Sequence[str], needs: str) -> None:
    """Raise `TfConfigError` naming every role of `roles` the cluster lacks; `needs` says why they are needed."""
    missing = [role for role in roles if not cluster.get(role)]
    if missing:
        raise TfConfigError(
            f"TF_CONFIG's cluster has no {' and no '.join(repr(role) for role in missing)} role "
            f"(it has {sorted(cluster)}); {needs}"
        )


def require_task_in_cluster(cluster: Mapping[str, list[str]], task_type: str, index: int, roles: Sequence[str]) -> None:
    """Raise `TfConfigError` unless this process's task is one of `roles` and its index exists in the cluster."""
    if task_type not in roles or not 0 <= index < len(cluster.get(task_type, [])):
        raise TfConfigError(f"TF_CONFIG's task {task_type}:{index} is not in the cluster {json.dumps(cluster)}.")


def task_of(environ: Mapping[str, str], roles: Sequence[str], needs: str) -> tuple[str, int, dict[str, list[str]]]:
    """(task type, index, cluster) of a process whose cluster must have every role of `roles` (`needs` says why)
    and whose task must be one of them."""
    cluster, task_type, index = read_tf_config(environ)
    require_roles(cluster, roles, needs)
    require_task_in_cluster(cluster, task_type, index, roles)
    return task_type, index, cluster


def task_name(environ: Mapping[str, str]) -> str:
    """``"worker 1"`` for error messages: this process's task as ``TF_CONFIG`` names it, or ``"unknown task"``."""
    try:
        task = json.loads(environ.get("TF_CONFIG", ""))["task"]
        return f"{task['type']} {task['index']}"
    except (ValueError, KeyError, TypeError):
        return "unknown task"
