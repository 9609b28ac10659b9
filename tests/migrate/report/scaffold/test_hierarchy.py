"""A hook hierarchy with its base in another file, shaped like the real ones (tensor2tensor's
MetricsBasedHook subclassed from another module): the scaffold is flattened, keeps the base's
constructor arguments, renames `params`, follows the evaluate phase, and runs on Keras as generated."""
from __future__ import annotations

import pytest

from migrate.report.scaffold import emit_callbacks
from migrate.report.scaffold.check import load_runnable

BASE = '''
import os
import tensorflow as tf


class CountingHook(tf.train.SessionRunHook):
  """Counts the steps it sees; subclasses decide what to do at the end."""
  _PREFIX = "count"

  def __init__(self, params, every_n_steps=1):
    self.params = dict(params)
    self._every_n_steps = every_n_steps

  def _label(self):
    return os.path.join(self._PREFIX, self.params.get("name", ""))

  def begin(self):
    self._count = 0

  def before_run(self, run_context):
    self._count += 1

  def after_run(self, run_context, run_values):
    if run_values.results % self._every_n_steps == 0:
      run_context.request_stop()
'''
HOOKS = '''
import tensorflow as tf

from proj import base


class SummaryHook(base.CountingHook):
  """Keeps a summary of the evaluation."""

  def __init__(self, params, every_n_steps=1):
    super(SummaryHook, self).__init__(params, every_n_steps=every_n_steps)
    self.summary = None

  def end(self, session):
    # what the evaluation saw
    self.summary = {"label": self._label(), "count": self._count, **self.params}


def evaluate(estimator, input_fn):
  return estimator.evaluate(input_fn, hooks=[SummaryHook({"name": "eval"})])
'''


@pytest.fixture
def scaffolds(write, run_scan, tmp_path):
    write("proj/__init__.py", "")
    write("proj/base.py", BASE)
    write("proj/hooks.py", HOOKS)
    written = emit_callbacks(run_scan(tmp_path / "proj").hooks, tmp_path / "out")
    return {path.name: path for path in written}


def test_every_scaffold_of_the_hierarchy_meets_the_static_criteria(scaffolds, scaffold_problems) -> None:
    assert sorted(scaffolds) == ["counting_callback.py", "summary_callback.py"]
    assert {name: scaffold_problems(path.read_text()) for name, path in scaffolds.items()} == {name: [] for name in scaffolds}


@pytest.mark.tensorflow
def test_the_subclass_scaffold_constructs_runs_and_keeps_its_state(scaffolds, survivors, stock_model, without_todo_methods) -> None:
    _, kept = without_todo_methods(scaffolds["summary_callback.py"].read_text())
    callback = load_runnable(scaffolds["summary_callback.py"], "SummaryCallback")({"name": "eval"}, every_n_steps=2)

    assert survivors({"SummaryCallback": callback}) == {}
    model, x, _ = stock_model
    batches = len(x) // 4
    assert sorted(kept) == ["__init__", "_init_counting_hook", "_label", "on_test_batch_begin", "on_test_begin", "on_test_end"]
    assert callback.summary == {"label": "count/eval", "count": batches, "name": "eval"}
    assert callback.hook_params == {"name": "eval"} and callback.params["verbose"] == 0
