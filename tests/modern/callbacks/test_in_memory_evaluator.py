"""`InMemoryEvaluator`: TF1's schedule on the MNIST model with a dataset; the stock-model scenario covers arrays."""
from __future__ import annotations

import pytest

from modern.callbacks.in_memory_evaluator import InMemoryEvaluator
from modern.training import fit_steps
from tests.modern.conftest import global_step


def test_start_every_n_iter_and_end_with_a_dataset(model, train_data, test_data, log_lines):
    logger, lines = log_lines
    evaluator = InMemoryEvaluator(test_data, steps=1, every_n_iter=2, logger=logger)
    fit_steps(model, train_data, 3, [evaluator])
    assert [step for step, _ in evaluator.results] == [0, 2, 3] and global_step(model) == 3
    assert set(evaluator.results[-1][1]) >= {"loss", "accuracy"}
    assert lines[0].startswith("Saving dict for global step 0: accuracy = ")


@pytest.mark.parametrize("every_n_iter", [0, None])
def test_every_n_iter_must_be_positive(every_n_iter):
    with pytest.raises(ValueError, match="every_n_iter must be a positive int"):
        InMemoryEvaluator([], every_n_iter=every_n_iter)
