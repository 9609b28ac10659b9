"""Acceptance (issue 14) on the SessionRunHooks TensorFlow 2.15 itself still ships as TF1 code
(`tensorflow/python/training`, `tpu`, `debug`): the same criteria as for tensorflow_estimator."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from migrate.report.scaffold import callback_name, emit_callbacks
from migrate.report.scaffold.check import load_runnable
from migrate.report.scanner import ScanOptions, scan

pytestmark = pytest.mark.estimator  # the TF 2.15 tree is the reference TF1 code (TF 2.15 suite only)

FILES = (
    "training/basic_session_run_hooks.py", "training/evaluation.py", "training/sync_replicas_optimizer.py",
    "tpu/async_checkpoint.py", "tpu/preempted_hook.py", "tpu/session_support.py", "debug/wrappers/hooks.py",
)
"""Every file of training/, tpu/ and debug/ that defines a SessionRunHook subclass (scanning the
directories finds the same 21 hooks; the files alone keep the test fast)."""
ARGUMENTS = {
    "LoggingTensorHook": lambda tmp: (({"loss": "loss"},), {"every_n_iter": 1}),
    "_MultiStepStopAtStepHook": lambda tmp: ((), {"num_steps": 3, "steps_per_run": 1}),
    "StopAtStepHook": lambda tmp: ((), {"num_steps": 3}),
    "CheckpointSaverHook": lambda tmp: ((str(tmp),), {"save_steps": 1}),
    "StepCounterHook": lambda tmp: ((), {}),
    "NanTensorHook": lambda tmp: ((None,), {}),
    "SummarySaverHook": None,
    "GlobalStepWaiterHook": lambda tmp: ((0,), {}),
    "FinalOpsHook": lambda tmp: (({},), {}),
    "FeedFnHook": lambda tmp: ((None,), {}),
    "ProfilerHook": None,
    "_MultiStepStopAfterNEvalsHook": lambda tmp: ((2, 1), {}),
    "_StopAfterNEvalsHook": lambda tmp: ((2,), {}),
    "_SyncReplicasOptimizerHook": None,
    "AsyncCheckpointSaverHook": lambda tmp: ((str(tmp),), {"save_steps": 1}),
    "CloudTPUPreemptedHook": None,
    "GracefulShutdownHook": lambda tmp: ((str(tmp / "ckpt"),), {}),
    "LocalCLIDebugHook": lambda tmp: ((), {}),
    "DumpingDebugHook": lambda tmp: ((str(tmp),), {}),
    "GrpcDebugHook": lambda tmp: ((["localhost:1"],), {}),
    "TensorBoardDebugHook": lambda tmp: ((["localhost:1"],), {}),
}
"""Hook → constructor arguments. None where none can exist in TF2: a TF1 summary op or Scaffold
(SummarySaverHook), a SyncReplicasOptimizer, a Cloud TPU resolver; ProfilerHook's constructor
opens a TF1 FileWriter (a TODO line)."""


@pytest.fixture(scope="module")
def scaffolds(tmp_path_factory) -> list[tuple[object, Path]]:
    spec = importlib.util.find_spec("tensorflow")
    root = Path(spec.origin).parent / "python"
    hooks = scan([str(root / name) for name in FILES], ScanOptions(jobs=1)).hooks
    written = emit_callbacks(hooks, tmp_path_factory.mktemp("tensorflow_scaffolds"))
    by_class = {path.read_text().split("\nclass ", 1)[1].split("(", 1)[0]: path for path in written}
    found = [(hook, by_class[callback_name(hook)]) for hook in hooks]
    return found


def test_every_scaffold_meets_the_static_criteria(scaffolds, scaffold_problems) -> None:
    assert sorted(hook.name for hook, _ in scaffolds) == sorted(ARGUMENTS)
    assert {hook.full_name: found for hook, path in scaffolds if (found := scaffold_problems(path.read_text()))} == {}


def test_every_constructible_scaffold_survives_fit_evaluate_and_predict(scaffolds, survivors, tmp_path) -> None:
    failures, callbacks = {}, {}
    for hook, path in scaffolds:
        arguments = ARGUMENTS[hook.name]
        if arguments is None:
            continue
        args, kwargs = arguments(tmp_path)
        try:
            callbacks[hook.full_name] = load_runnable(path, callback_name(hook))(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - reported with the hook's name
            failures[hook.full_name] = f"construction: {type(error).__name__}: {error}"
    failures.update(survivors(callbacks))
    assert failures == {}, "\n".join(f"{name}: {why}" for name, why in failures.items())
    assert len(callbacks) >= 16
