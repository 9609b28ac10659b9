from __future__ import annotations

import pytest
import tensorflow as tf

from modern.optimizers import Ftrl
from tests.modern.optimizers.twin import run_twins

REGULARISED = {
    "learning_rate": 0.1,
    "l1_regularization_strength": 0.01,
    "l2_regularization_strength": 0.02,
}


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param(REGULARISED, id="l1 and l2 (Ftrl)"),
        pytest.param(
            {**REGULARISED, "l2_shrinkage_regularization_strength": 0.05, "beta": 0.3, "learning_rate_power": -0.7,
             "initial_accumulator_value": 0.4},
            id="shrinkage, beta, power and accumulator (FtrlV2)",
        ),
    ],
)
def test_every_variable_and_slot_equals_tf1_ftrl_bit_for_bit(kwargs):
    twins = run_twins(lambda lr: tf.compat.v1.train.FtrlOptimizer(**kwargs), Ftrl(**kwargs))

    assert twins.mismatches == []


def test_slot_names_follow_tf1_accum_and_linear_names():
    assert Ftrl(0.1).tf1_slot_names("w") == {"accum": "w/Ftrl", "linear": "w/Ftrl_1"}
    assert Ftrl(0.1, accum_name="A", linear_name="L").tf1_slot_names("w") == {"accum": "w/A", "linear": "w/L"}


@pytest.mark.parametrize(
    "argument, value",
    [
        pytest.param("learning_rate_power", 0.5, id="positive power"),
        pytest.param("l1_regularization_strength", -1.0, id="negative l1"),
        pytest.param("initial_accumulator_value", -0.1, id="negative accumulator"),
    ],
)
def test_arguments_tf1_refuses_are_refused(argument, value):
    with pytest.raises(ValueError, match=argument):
        Ftrl(0.1, **{argument: value})
