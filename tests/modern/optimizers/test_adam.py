from __future__ import annotations

import pytest
import tensorflow as tf

from modern.optimizers import Adam
from modern.optimizers.flavours import make_optimizer
from tests.modern.optimizers.twin import run_twins


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({}, id="TF1 defaults"),
        pytest.param({"learning_rate": 0.05, "beta1": 0.8, "beta2": 0.99, "epsilon": 1e-3}, id="every hyperparameter changed"),
    ],
)
def test_every_variable_and_slot_equals_tf1_adam_bit_for_bit(kwargs):
    twins = run_twins(lambda lr: tf.compat.v1.train.AdamOptimizer(**kwargs), Adam(**kwargs))

    assert twins.mismatches == []
    assert sorted(twins.values(0)) == sorted(
        ["beta1_power", "beta2_power"]
        + [f"{name}{slot}" for name in ("hidden/kernel", "hidden/bias", "out/kernel", "out/bias") for slot in ("", ":m", ":v")]
    )


def test_keras_native_adam_with_tf1_hyperparameters_is_not_bit_identical():
    twins = run_twins(lambda lr: tf.compat.v1.train.AdamOptimizer(0.01), make_optimizer("adam", "native", learning_rate=0.01))

    assert twins.mismatches, "Keras' own Adam matched TF1 bit for bit; the exact twin would be unnecessary"


def test_slots_are_named_like_tf1_checkpoints():
    assert Adam().tf1_slot_names("fc1/weights") == {"m": "fc1/weights/Adam", "v": "fc1/weights/Adam_1"}
    assert Adam(name="Opt").tf1_slot_names("w") == {"m": "w/Opt", "v": "w/Opt_1"}
