"""Which phase a hook runs in, from where the scanned code passes it (`migrate.report.phases`)."""
from __future__ import annotations

import textwrap

import pytest

from migrate.report.phases import keras_method, method_text

HOOK = """
import tensorflow as tf
from tensorflow.train import MonitoredSession

class CountHook(tf.estimator.SessionRunHook):
    def after_run(self, run_context, run_values):
        pass
"""


@pytest.mark.parametrize(
    ("usage", "phases"),
    [
        pytest.param("", (), id="never passed: unknown"),
        pytest.param("def f(e):\n    e.train(input_fn, hooks=[CountHook()])\n", ("train",), id="Estimator.train(hooks=)"),
        pytest.param("def f(e):\n    e.evaluate(input_fn, hooks=[CountHook()])\n", ("evaluate",), id="Estimator.evaluate(hooks=)"),
        pytest.param("def f(e):\n    return list(e.predict(input_fn, hooks=[CountHook()]))\n", ("predict",), id="Estimator.predict(hooks=)"),
        pytest.param(
            "def model_fn(f, l, mode):\n    return tf.estimator.EstimatorSpec(mode, training_hooks=[CountHook()], evaluation_hooks=[CountHook()])\n",
            ("train", "evaluate"), id="EstimatorSpec(training_hooks=, evaluation_hooks=)",
        ),
        pytest.param("spec = tf.estimator.EvalSpec(input_fn, hooks=[CountHook()])\n", ("evaluate",), id="EvalSpec(hooks=)"),
        pytest.param("def f():\n    with tf.compat.v1.train.MonitoredTrainingSession(hooks=[CountHook()]) as s:\n        pass\n", ("train",), id="MonitoredTrainingSession"),
        pytest.param("def run_inference():\n    hooks = [CountHook()]\n    with MonitoredSession(hooks=hooks) as s:\n        pass\n", ("predict",), id="MonitoredSession in an inference loop, through a variable"),
        pytest.param("def go():\n    with MonitoredSession(hooks=[CountHook()]) as s:\n        pass\n", (), id="MonitoredSession in a function named for no phase"),
        pytest.param(
            "def go(predictions):\n    with MonitoredSession(hooks=[CountHook()]) as s:\n        while not s.should_stop():\n            s.run(predictions)\n",
            ("predict",), id="MonitoredSession whose loop fetches predictions",
        ),
        pytest.param("def f(e):\n    hooks = []\n    hooks.append(CountHook())\n    e.predict(input_fn, hooks=hooks)\n", ("predict",), id="list built with append"),
    ],
)
def test_phase_of_a_hook(write, run_scan, usage: str, phases: tuple[str, ...]) -> None:
    path = write("code.py", textwrap.dedent(HOOK) + "\n" + usage)
    (hook,) = run_scan(path).hooks
    assert hook.phases == phases


def test_phase_of_a_hook_passed_from_another_file(write, run_scan, tmp_path) -> None:
    write("proj/__init__.py", "")
    write("proj/hooks.py", HOOK)
    write("proj/main.py", "from proj.hooks import CountHook\ndef evaluate(e):\n    e.evaluate(None, hooks=[CountHook()])\n")
    (hook,) = run_scan(tmp_path / "proj").hooks
    assert hook.phases == ("evaluate",)


@pytest.mark.parametrize(
    ("method", "phase", "expected"),
    [("begin", "train", "on_train_begin"), ("after_create_session", "evaluate", "on_test_begin"), ("before_run", "predict", "on_predict_batch_begin"), ("end", "evaluate", "on_test_end")],
)
def test_keras_method(method: str, phase: str, expected: str) -> None:
    assert keras_method(method, phase) == expected


def test_method_text_names_each_phase_and_assumes_train_when_unknown() -> None:
    assert (method_text("after_run", ("evaluate", "predict")), method_text("end", ())) == ("on_test_batch_end / on_predict_batch_end", "on_train_end")
