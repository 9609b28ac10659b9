"""The residual CNN with batch norm (UPDATE_OPS) and a piecewise-constant rate on the global step.

One short run with the TF1-exact Momentum twin, on 128 training images so
that the rate drops three times within 8 steps (4 batches per "epoch",
boundaries at steps 4, 6 and 7): every stage must be bit-identical, and the
schedule must have acted. The README's 200-step figures come from
`migrate parity --pair examples/resnet_bn/pair.py [--optimizer momentum]`.
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


def test_momentum_through_the_schedule_is_bit_identical():
    from migrate.parity import check_parity

    result = check_parity(PAIR, steps=8, optimizer="momentum", params=SHORT, progress=lambda message: None)
    assert result.ok, result.first_failure.message
    assert [stage.status for stage in result.stages] == ["ok"] * 5
    losses = result.summary()["losses"]
    assert losses["steps_compared"] == 8
    assert losses["max_abs_loss_diff"] == 0.0
