"""Canned DNNLinearCombinedClassifier ↔ Keras WideDeepModel compiled with [linear optimizer, DNN optimizer].

The canned defaults (FTRL for the linear part, Adagrad for the DNN, each
with the canned estimator's rate) against the TF1-exact twins must be
bit-identical at every stage of a short run; the rates the pair calls the
canned defaults must be the installed estimator's.
"""
from __future__ import annotations

import pytest

from tests.examples.helpers import EXAMPLES, load_pair

pytestmark = pytest.mark.estimator

PAIR = EXAMPLES / "wide_deep" / "pair.py"


def test_the_canned_default_rates_are_the_installed_estimators():
    from tensorflow_estimator.python.estimator.canned import dnn_linear_combined

    pair = load_pair("wide_deep")
    assert pair.CANNED_DNN_LEARNING_RATE == dnn_linear_combined._DNN_LEARNING_RATE
    assert pair.canned_linear_learning_rate() == dnn_linear_combined._linear_learning_rate(len(pair.LINEAR_COLUMNS))


def test_two_optimizers_through_the_exact_twins_are_bit_identical():
    from migrate.parity import check_parity

    result = check_parity(PAIR, steps=5, progress=lambda message: None)
    assert result.ok, result.first_failure.message
    assert [stage.status for stage in result.stages][:5] == ["ok"] * 5
    assert result.summary()["losses"]["max_abs_loss_diff"] == 0.0
    rows = result.stage("variables").details["mapping"]
    assert [row["keras"] for row in rows if row["keras"].startswith("linear_model/kernel")] == [
        f"linear_model/kernel#{index}" for index in range(4)]
