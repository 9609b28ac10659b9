"""Acceptance: on the installed tensorflow_estimator, the report finds exactly the SessionRunHook subclasses
that importing the package and walking `SessionRunHook.__subclasses__()` recursively finds."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from migrate.report.scanner import ScanOptions, scan

INDEPENDENT_LISTING = textwrap.dedent(
    """
    import importlib, json, os, pkgutil
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow_estimator
    from tensorflow.python.training.session_run_hook import SessionRunHook
    failed = []
    for info in pkgutil.walk_packages(tensorflow_estimator.__path__, "tensorflow_estimator."):
        try:
            importlib.import_module(info.name)
        except Exception as error:
            failed.append(f"{info.name}: {error!r}")
    found, pending = set(), [SessionRunHook]
    while pending:
        for subclass in pending.pop().__subclasses__():
            if subclass not in found:
                found.add(subclass)
                pending.append(subclass)
    names = sorted(f"{cls.__module__}.{cls.__qualname__}" for cls in found if cls.__module__.startswith("tensorflow_estimator"))
    print(json.dumps({"package": os.path.dirname(tensorflow_estimator.__file__), "names": names, "failed": failed}))
    """
)


@pytest.mark.estimator
def test_report_finds_every_session_run_hook_subclass_of_tensorflow_estimator() -> None:
    completed = subprocess.run([sys.executable, "-c", INDEPENDENT_LISTING], capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr[-2000:]
    listing = json.loads(completed.stdout.strip().splitlines()[-1])
    assert listing["failed"] == [] and len(listing["names"]) >= 20

    report = scan([listing["package"]], ScanOptions(jobs=2))
    found = sorted(f"{hook.module}.{hook.qualname}" for hook in report.hooks)

    assert found == listing["names"]
    assert all(Path(result.path).name.endswith(".py") and result.skipped == "empty file" for result in report.skipped)
