"""Acceptance (issue 14) on every SessionRunHook subclass of the installed `tensorflow_estimator`.

Each scaffold parses, reads no undefined global outside TODO lines, passes no
argument to `keras.callbacks.Callback.__init__` and assigns nothing Keras'
Callback owns; with its TODO methods removed it is constructed with the
hook's own constructor arguments and survives `fit`, `evaluate` and `predict`
on a stock model.
"""
from __future__ import annotations

import collections
import importlib.util
import os
from pathlib import Path

import pytest

from migrate.report.scaffold import callback_name, emit_callbacks
from migrate.report.scaffold.check import load_runnable
from migrate.report.scanner import ScanOptions, scan

pytestmark = pytest.mark.estimator

Counter = collections.namedtuple("Counter", "value unit")
ARGUMENTS = {
    "_SummaryHook": lambda tf, tmp: ((), {}),
    "_LossRelativeChangeHook": lambda tf, tmp: ((tf.constant(1.0), 1e-3), {}),
    "_InitializeClustersHook": lambda tf, tmp: ((None, tf.Variable(False), True), {}),
    "_SDCAUpdateWeightsHook": None,
    "CheckPartitionerVarHook": lambda tf, tmp: ((None, "linear/w", 4, 2), {}),
    "_StopOnPredicateHook": lambda tf, tmp: ((lambda: False,), {"run_every_secs": None, "run_every_steps": 2}),
    "_CheckForStoppingHook": lambda tf, tmp: ((), {}),
    "_MultiWorkerEarlyStoppingHook": lambda tf, tmp: ((lambda: False,), {"run_every_steps": 2}),
    "InMemoryEvaluatorHook": lambda tf, tmp: ((tf.estimator.Estimator(model_fn=lambda features, labels, mode: None, model_dir=str(tmp)), lambda: None), {"every_n_iter": 2}),
    "_StopAtCheckpointStepHook": lambda tf, tmp: ((str(tmp), 4), {}),
    "TPUInfeedOutfeedSessionHook": None,
    "TPUInfeedOutfeedSessionHookForPrediction": None,
    "_TPUStopAtStepHook": lambda tf, tmp: ((Counter(2, "count"),), {"num_steps": 4}),
    "_SetEvalIterationsHook": lambda tf, tmp: ((4,), {}),
    "_StoppingPredictHook": lambda tf, tmp: ((tf.constant(0),), {}),
    "_OutfeedHostCallHook": lambda tf, tmp: (({},), {}),
    "ExamplesPerSecondHook": None,
    "InstallSignalHandlerHook": lambda tf, tmp: ((), {}),
    "MultiHostDatasetInitializerHook": lambda tf, tmp: (([],), {}),
    "_StopAtSecsHook": lambda tf, tmp: ((60,), {}),
    "_DatasetInitializerHook": lambda tf, tmp: ((None,), {}),
    "DistributedIteratorInitializerHook": lambda tf, tmp: ((None,), {}),
}
"""Hook class → its constructor arguments, built from real objects. None where they cannot exist in TF2:
the TPU hooks read a TPU context in __init__, ExamplesPerSecondHook's constructor configures its TF1 base
(a TODO), _SDCAUpdateWeightsHook needs a graph-mode SDCA model and train op to build its update op."""


@pytest.fixture(scope="module")
def scaffolds(tmp_path_factory) -> list[tuple[object, Path]]:
    spec = importlib.util.find_spec("tensorflow_estimator")
    if spec is None or spec.origin is None:
        pytest.skip("tensorflow_estimator is not installed")
    hooks = scan([os.path.dirname(spec.origin)], ScanOptions(jobs=2)).hooks
    written = emit_callbacks(hooks, tmp_path_factory.mktemp("estimator_scaffolds"))
    by_class = {path.read_text().split("\nclass ", 1)[1].split("(", 1)[0]: path for path in written}
    return [(hook, by_class[callback_name(hook)]) for hook in hooks]


def test_every_scaffold_meets_the_static_criteria(scaffolds, scaffold_problems) -> None:
    assert len(scaffolds) >= 20
    problems = {hook.full_name: scaffold_problems(path.read_text()) for hook, path in scaffolds}
    assert {name: found for name, found in problems.items() if found} == {}


def test_every_constructible_scaffold_survives_fit_evaluate_and_predict(scaffolds, survivors, tmp_path) -> None:
    import tensorflow as tf

    assert sorted({hook.name for hook, _ in scaffolds}) == sorted(ARGUMENTS)
    failures, callbacks = {}, {}
    for hook, path in scaffolds:
        arguments = ARGUMENTS[hook.name]
        if arguments is None:
            continue
        args, kwargs = arguments(tf, tmp_path)
        try:
            callbacks[hook.full_name] = load_runnable(path, callback_name(hook))(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - reported with the hook's name
            failures[hook.full_name] = f"construction: {type(error).__name__}: {error}"
    failures.update(survivors(callbacks))
    assert failures == {}, "\n".join(f"{name}: {why}" for name, why in failures.items())
    assert len(callbacks) >= 18
