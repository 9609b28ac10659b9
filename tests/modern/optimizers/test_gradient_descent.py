from __future__ import annotations

import pytest
import tensorflow as tf
from tensorflow import keras

from modern.optimizers import GradientDescent
from tests.modern.optimizers.twin import run_twins


@pytest.mark.parametrize("learning_rate", [pytest.param(0.37, id="lr 0.37")])
def test_every_variable_equals_tf1_gradient_descent_bit_for_bit(learning_rate):
    twins = run_twins(lambda lr: tf.compat.v1.train.GradientDescentOptimizer(learning_rate), GradientDescent(learning_rate))

    assert twins.mismatches == []


def test_a_keras_schedule_matches_tf1_called_with_the_global_step():
    schedule = keras.optimizers.schedules.PiecewiseConstantDecay([3, 6], [0.2, 0.1, 0.05])
    twins = run_twins(
        lambda lr: tf.compat.v1.train.GradientDescentOptimizer(lr),
        GradientDescent(schedule),
        tf1_learning_rate=lambda step: lambda: schedule(step),
    )

    assert twins.mismatches == []


def test_has_no_slots():
    assert GradientDescent(0.1).tf1_slot_names("w") == {}
