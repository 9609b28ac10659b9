from __future__ import annotations

import pytest
import tensorflow as tf
from tensorflow import keras

from modern.optimizers import Momentum
from tests.modern.optimizers.twin import run_twins


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"learning_rate": 0.05, "momentum": 0.9}, id="momentum 0.9"),
        pytest.param({"learning_rate": 0.05, "momentum": 0.9, "use_nesterov": True}, id="Nesterov"),
    ],
)
def test_every_variable_and_slot_equals_tf1_momentum_bit_for_bit(kwargs):
    twins = run_twins(lambda lr: tf.compat.v1.train.MomentumOptimizer(**kwargs), Momentum(**kwargs))

    assert twins.mismatches == []
    assert "out/bias:momentum" in twins.values(0)


def test_a_decaying_learning_rate_rescales_the_whole_accumulator_like_tf1():
    schedule = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5)
    twins = run_twins(
        lambda lr: tf.compat.v1.train.MomentumOptimizer(lr, momentum=0.9),
        Momentum(schedule, momentum=0.9),
        tf1_learning_rate=lambda step: lambda: schedule(step),
    )

    assert twins.mismatches == []



def test_slot_is_named_like_tf1_checkpoints():
    assert Momentum(0.1, 0.9).tf1_slot_names("fc1/biases") == {"momentum": "fc1/biases/Momentum"}
