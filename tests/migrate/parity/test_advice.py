"""The optimizer advice and the check that an --optimizer choice reached a side (class names only)."""
from __future__ import annotations

from migrate.parity.advice import ignored_optimizer, optimizer_advice


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
