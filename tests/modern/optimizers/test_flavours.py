from __future__ import annotations

import pytest
from tensorflow import keras

from modern.optimizers import Adam, GradientDescent
from modern.optimizers.flavours import FAMILIES, make_optimizer


def test_exact_is_the_twin_and_native_is_keras_own_with_tf1_hyperparameters():
    exact = make_optimizer("adam", learning_rate=0.002)
    native = make_optimizer("adam", "native", learning_rate=0.002)

    assert isinstance(exact, Adam) and exact.epsilon == 1e-8
    assert type(native) is keras.optimizers.Adam
    assert (native.beta_1, native.beta_2, native.epsilon) == (0.9, 0.999, 1e-8)


def test_sgd_is_an_alias_of_gradient_descent():
    assert isinstance(make_optimizer("sgd", learning_rate=0.1), GradientDescent)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_family_has_both_flavours(name):
    kwargs = {"learning_rate": 0.1, **({"momentum": 0.9} if name == "momentum" else {})}

    assert make_optimizer(name, "exact", **kwargs).TF1_CLASS.startswith("tf.compat.v1.train.")
    assert isinstance(make_optimizer(name, "native", **kwargs), keras.optimizers.Optimizer)


@pytest.mark.parametrize(
    "call, message",
    [
        pytest.param(lambda: make_optimizer("adamw"), "unknown optimizer 'adamw'", id="unknown optimizer"),
        pytest.param(lambda: make_optimizer("adam", "fast"), "unknown optimizer flavour 'fast'", id="unknown flavour"),
        pytest.param(lambda: make_optimizer("adam", "native", beta_1=0.9), r"takes no argument\(s\) \['beta_1'\]", id="Keras name for TF1 argument"),
    ],
)
def test_bad_names_are_refused_with_the_choices(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_the_cli_spells_the_same_flavours_without_importing_keras():
    from modern.cli import DEFAULT_OPTIMIZER_FLAVOUR, OPTIMIZER_FLAVOURS
    from modern.optimizers.flavours import DEFAULT_FLAVOUR, FLAVOURS

    assert (OPTIMIZER_FLAVOURS, DEFAULT_OPTIMIZER_FLAVOUR) == (FLAVOURS, DEFAULT_FLAVOUR)
