"""The tabular CTR example (feature columns, batch norm, warm-up + staircase decay, clipping, Momentum).

One run of 60 steps (past the warm-up and the first decay step) must be
bit-identical; the Keras side with its features concatenated as written
instead of in `input_layer`'s order must fail at the forward stage, which
names the first layer's input as where the outputs start to differ.
"""
from __future__ import annotations

import pytest

from tests.examples.helpers import EXAMPLES

pytestmark = pytest.mark.estimator

PAIR = EXAMPLES / "ctr_tabular" / "pair.py"


def test_parity_is_exact_through_warmup_decay_and_clipping():
    from migrate.parity import check_parity

    result = check_parity(PAIR, steps=60, progress=lambda message: None)
    assert result.ok, result.first_failure.message
    assert [stage.status for stage in result.stages] == ["ok"] * 5
    assert result.summary()["losses"]["max_abs_loss_diff"] == 0.0


def test_features_in_another_order_are_located_at_the_first_layers_input():
    from migrate.parity import check_parity

    result = check_parity(PAIR, steps=60, progress=lambda message: None, modern_overrides={"feature_order": "as_written"})
    assert result.first_failure.name == "forward"
    assert "the input of the first layer (the one with hidden/kernel) already differs" in result.first_failure.message
