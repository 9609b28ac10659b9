from __future__ import annotations

import pytest
import tensorflow as tf

from modern.optimizers import Adagrad
from tests.modern.optimizers.twin import run_twins


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"learning_rate": 0.3, "initial_accumulator_value": 0.5}, id="initial accumulator 0.5"),
    ],
)
def test_every_variable_and_slot_equals_tf1_adagrad_bit_for_bit(kwargs):
    twins = run_twins(lambda lr: tf.compat.v1.train.AdagradOptimizer(**kwargs), Adagrad(**kwargs))

    assert twins.mismatches == []


def test_accumulator_starts_at_the_initial_value():
    optimizer = Adagrad(0.1, initial_accumulator_value=0.25)
    variable = tf.Variable([1.0, 2.0])
    optimizer.build([variable])

    assert optimizer.slot(variable, "accumulator").numpy().tolist() == [0.25, 0.25]


def test_a_non_positive_initial_accumulator_is_refused_like_tf1():
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive"):
        Adagrad(0.1, initial_accumulator_value=0.0)
