"""`InMemoryEvaluatorHook`: evaluations before the first step, every N steps of this `train`, and at the end."""
from __future__ import annotations

import glob
import os

import pytest
import tensorflow as tf

from legacy.estimator import evaluate, train
from legacy.hooks.in_memory_evaluator import make_in_memory_evaluator_hook
from legacy.inputs import eval_input


def _eval_summaries(eval_dir: str) -> dict[int, dict[str, float]]:
    found: dict[int, dict[str, float]] = {}
    for path in glob.glob(os.path.join(eval_dir, "events.out.tfevents.*")):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                found.setdefault(event.step, {})[value.tag] = value.simple_value
    return found


def test_start_every_n_iter_and_end(make_estimator, train_arrays, test_arrays):
    """The schedule `InMemoryEvaluator` keeps: steps 0, 2, 4 and the last step 5 (evaluated again although 4 was recent)."""
    estimator = make_estimator()
    input_fn, init_hook = eval_input(*test_arrays, batch_size=100)
    hook = make_in_memory_evaluator_hook(estimator, input_fn, hooks=[init_hook], every_n_iter=2)
    train(estimator, train_arrays, steps=5, batch_size=32, hooks=[hook])

    summaries = _eval_summaries(estimator.eval_dir())
    assert sorted(summaries) == [0, 2, 4, 5]
    final = evaluate(estimator, test_arrays, batch_size=100)
    assert summaries[5]["loss"] == pytest.approx(final["loss"], rel=1e-5)
    assert summaries[0]["loss"] > summaries[5]["loss"]
