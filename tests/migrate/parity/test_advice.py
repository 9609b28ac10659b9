"""The optimizer advice and the check that an --optimizer choice reached a side (class names only)."""
from __future__ import annotations

import pytest

from migrate.parity.advice import ignored_optimizer, optimizer_advice, replica_scaling_advice


def test_every_tf1_optimizer_is_named_and_a_missing_twin_is_proposed():
    advice = optimizer_advice(["FtrlOptimizer", "AdagradOptimizer"],
                              ["keras.src.optimizers.ftrl.Ftrl", "modern.optimizers.adagrad.Adagrad"])
    assert "the TF1 graph trains with FtrlOptimizer and AdagradOptimizer" in advice
    assert "Ftrl and Adagrad (TF1-exact twin)" in advice and "compile with modern.optimizers.Ftrl (the TF1-exact twin)" in advice


def test_the_advice_says_when_the_exact_twins_are_already_in_use():
    advice = optimizer_advice(["MomentumOptimizer"], ["modern.optimizers.momentum.Momentum"])
    assert "already runs TF1's update (its TF1-exact twins), so the optimizer is not the cause" in advice


def test_an_optimizer_choice_that_reached_neither_side_is_named():
    message = ignored_optimizer("adam", ["GradientDescentOptimizer"], ["keras.src.optimizers.sgd.SGD"])
    assert message.startswith("--optimizer adam (params['optimizer']) reached neither side: the model_fn trains with "
                              "GradientDescentOptimizer and the Keras model with SGD")
    assert ignored_optimizer("adam", ["AdamOptimizer"], ["keras.src.optimizers.sgd.SGD"]) is None
    assert ignored_optimizer("sgd", ["GradientDescentOptimizer"], ["keras.src.optimizers.sgd.SGD"]) is None
    assert ignored_optimizer("Adam", ["AdamOptimizer"], ["modern.optimizers.adam.Adam"]) is None  # optimize_loss's name


def test_a_first_step_loss_a_factor_of_the_replica_count_apart_is_named():
    # the measured naive canned_dnn run: the v1 head's SUM loss, 2 workers (bench/results/distributed_pairs.md)
    advice = replica_scaling_advice(19.127254486083984, 38.25450897216797, 2)
    assert "N times TF1's (N = 2 replicas" in advice and "num_replicas_in_sync" in advice
    assert "1/N of TF1's (N = 4 replicas" in replica_scaling_advice(8.0, 2.0, 4)


@pytest.mark.parametrize("legacy, modern, replicas", [
    (19.127254, 19.127254 * 1.9, 2),  # a drift, not a factor
    (19.127254, 19.127254 * 2, 1),  # one replica: nothing to scale
    (19.127254, 19.127254 * 2, 3),  # 2 is not the replica count
    (0.0, 0.0, 2),
])
def test_no_replica_advice_without_the_exact_factor(legacy, modern, replicas):
    assert replica_scaling_advice(legacy, modern, replicas) is None
