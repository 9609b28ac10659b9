from __future__ import annotations

import pytest
import tensorflow as tf

from modern.optimizers import RMSProp
from tests.modern.optimizers.twin import run_twins


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"learning_rate": 0.01}, id="TF1 defaults"),
        pytest.param({"learning_rate": 0.01, "momentum": 0.5, "centered": True, "decay": 0.8, "epsilon": 1e-6}, id="centered"),
    ],
)
def test_every_variable_and_slot_equals_tf1_rmsprop_bit_for_bit(kwargs):
    twins = run_twins(lambda lr: tf.compat.v1.train.RMSPropOptimizer(**kwargs), RMSProp(**kwargs))

    assert twins.mismatches == []


def test_slots_follow_tf1_creation_order_and_start_at_tf1_values():
    optimizer = RMSProp(0.1, centered=True)
    variable = tf.Variable([1.0, 2.0])
    optimizer.build([variable])

    assert optimizer.tf1_slot_names("w") == {"rms": "w/RMSProp", "mg": "w/RMSProp_1", "momentum": "w/RMSProp_2"}
    assert optimizer.slot(variable, "rms").numpy().tolist() == [1.0, 1.0]
    assert RMSProp(0.1).tf1_slot_names("w") == {"rms": "w/RMSProp", "momentum": "w/RMSProp_1"}
