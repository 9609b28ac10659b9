"""`FinalOps`: the final metric values at the end of evaluate (and fit)."""
from __future__ import annotations

import pytest

from modern.callbacks.final_ops import FinalOps
from modern.training import evaluate, fit_steps


def test_values_at_the_end_of_evaluate_equal_the_returned_metrics(model, test_data):
    final = FinalOps(["loss", "accuracy"], compute=lambda model: {"bias_norm": float(abs(model.get_layer("logits").bias.numpy()).sum())})
    results = evaluate(model, test_data, [final])
    assert final.final_ops_values["loss"] == pytest.approx(results["loss"])
    assert final.final_ops_values["accuracy"] == pytest.approx(results["accuracy"])
    assert final.final_ops_values["bias_norm"] == 0.0


def test_train_phase(model, train_data):
    final = FinalOps(["global_step"], phases=("train",))
    fit_steps(model, train_data, 3, [final])
    assert final.final_ops_values == {"global_step": 3}


def test_missing_key(model, test_data):
    with pytest.raises(KeyError, match="not in the final logs"):
        evaluate(model, test_data, [FinalOps(["precision"])])
