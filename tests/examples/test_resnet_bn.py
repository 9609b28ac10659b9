"""The residual CNN with batch norm (UPDATE_OPS) and a piecewise-constant rate on the global step.

One short run with the TF1-exact Momentum twin, on 128 training images so
that the rate drops three times within 8 steps (4 batches per "epoch",
boundaries at steps 4, 6 and 7): every trainable variable and every loss
must be bit-identical; only the batch-norm moving statistics may differ, by
at most 4 ulp (README: TF1 graph mode and Keras update them with different
formulas), which `--schedule rounding` accepts. The README's 200-step
figures come from `migrate parity --pair examples/resnet_bn/pair.py`.
"""
from __future__ import annotations

import pytest

from tests.examples.helpers import EXAMPLES, load_pair

pytestmark = pytest.mark.estimator

PAIR = EXAMPLES / "resnet_bn" / "pair.py"
SHORT = {"train_examples": 128, "eval_examples": 64}


def test_the_boundaries_are_derived_from_epochs_as_the_official_code_does():
    pair = load_pair("resnet_bn")
    boundaries, rates = pair.learning_rate_boundaries({**pair.PARAMS, **SHORT})
    assert boundaries == [4, 6, 7]
    assert rates == pytest.approx([0.1, 0.01, 0.001, 0.0001])
    assert len(pair.variable_map) == len(set(pair.variable_map.values())) == 10 + 2 * 7 + 2  # convolutions, batch norms (gamma, beta), dense


def test_momentum_through_the_schedule_trains_bit_identically_and_the_moving_statistics_round_apart():
    from migrate.parity import check_parity

    result = check_parity(PAIR, steps=8, optimizer="momentum", params=SHORT, schedule="rounding",
                          progress=lambda message: None)
    assert result.ok, result.first_failure.message
    assert [stage.status for stage in result.stages] == ["ok"] * 5
    losses = result.summary()["losses"]
    assert losses["steps_compared"] == 8
    assert losses["max_abs_loss_diff"] == 0.0
    rows = result.stage("one-step").details["variables"]
    differing = {row["tf1"] for row in rows if row["max_abs_diff"] != 0.0}
    assert differing, "TF1 graph mode and Keras update the moving statistics with different formulas"
    assert all(name.endswith(("/moving_mean", "/moving_variance")) for name in differing), sorted(differing)
    assert max(row["ulp"] for row in rows) <= 4
