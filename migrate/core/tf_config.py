"""Reading ``TF_CONFIG``: the cluster spec and this process's task, shared by both distributed sides.

Each side then checks the roles it needs (the TF1 cluster a ps and workers,
MultiWorkerMirroredStrategy workers only); this module only turns the
environment variable into data, with a message that says what was wrong.
"""
from __future__ import annotations

import json
from collections.abc import Mapping


class TfConfigError(Exception):
    """``TF_CONFIG`` is missing or is not a cluster spec with a task; the process exits 2 with this message."""


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
