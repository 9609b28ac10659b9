"""One registry for "which optimizer does the Keras side train with": the TF1-exact twin or Keras' own.

`make_optimizer(name, flavour, **tf1_kwargs)` takes TF1's constructor
arguments (``beta1``, ``decay``, ``use_nesterov`` …) for both flavours:

* ``"exact"`` — the class in `modern.optimizers` that runs TF1's kernels:
  bit-identical to the TF1 optimizer;
* ``"native"`` — Keras' optimizer of the same family with the TF1
  hyperparameters translated (``beta1`` → ``beta_1``, ``decay`` → ``rho``,
  TF1's epsilon defaults instead of Keras'), so what remains is the
  formula difference each exact module documents. TF1-only arguments
  without a Keras counterpart (``use_locking``, slot names) are accepted
  and ignored; arguments TF1 does not have are an error in both flavours.

Names are TF1's, lower-case, plus ``"sgd"`` (the name the parity commands
use for gradient descent).
"""
from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tensorflow import keras

from modern.optimizers import Adagrad, Adam, Ftrl, GradientDescent, Momentum, RMSProp
from modern.optimizers.base import TF1ExactOptimizer

FLAVOURS = ("exact", "native")
DEFAULT_FLAVOUR = "exact"
"""What `modern.model.build_model` and `python -m modern` use unless told otherwise."""


def _native_gradient_descent(learning_rate: Any, **ignored: Any) -> keras.optimizers.Optimizer:
    return keras.optimizers.SGD(learning_rate=learning_rate, momentum=0.0)


def _native_momentum(learning_rate: Any, momentum: float, use_nesterov: bool = False, **ignored: Any) -> keras.optimizers.Optimizer:
    return keras.optimizers.SGD(learning_rate=learning_rate, momentum=momentum, nesterov=use_nesterov)


def _native_adam(
    learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8, **ignored: Any
) -> keras.optimizers.Optimizer:
    return keras.optimizers.Adam(learning_rate=learning_rate, beta_1=beta1, beta_2=beta2, epsilon=epsilon)


def _native_adagrad(learning_rate: Any, initial_accumulator_value: float = 0.1, **ignored: Any) -> keras.optimizers.Optimizer:
    return keras.optimizers.Adagrad(
        learning_rate=learning_rate, initial_accumulator_value=initial_accumulator_value, epsilon=0.0
    )


def _native_rmsprop(
    learning_rate: Any, decay: float = 0.9, momentum: float = 0.0, epsilon: float = 1e-10, centered: bool = False, **ignored: Any
) -> keras.optimizers.Optimizer:
    return keras.optimizers.RMSprop(
        learning_rate=learning_rate, rho=decay, momentum=momentum, epsilon=epsilon, centered=centered
    )


def _native_ftrl(
    learning_rate: Any,
    learning_rate_power: float = -0.5,
    initial_accumulator_value: float = 0.1,
    l1_regularization_strength: float = 0.0,
    l2_regularization_strength: float = 0.0,
    l2_shrinkage_regularization_strength: float = 0.0,
    beta: float | None = None,
    **ignored: Any,
) -> keras.optimizers.Optimizer:
    return keras.optimizers.Ftrl(
        learning_rate=learning_rate,
        learning_rate_power=learning_rate_power,
        initial_accumulator_value=initial_accumulator_value,
        l1_regularization_strength=l1_regularization_strength,
        l2_regularization_strength=l2_regularization_strength,
        l2_shrinkage_regularization_strength=l2_shrinkage_regularization_strength,
        beta=0.0 if beta is None else beta,
    )


@dataclass(frozen=True)
class Family:
    """An optimizer family: the exact class, the native builder, and the TF1 class both replace."""

    exact: type[TF1ExactOptimizer]
    native: Callable[..., keras.optimizers.Optimizer]

    @property
    def tf1_class(self) -> str:
        return self.exact.TF1_CLASS


FAMILIES: dict[str, Family] = {
    "gradient_descent": Family(GradientDescent, _native_gradient_descent),
    "momentum": Family(Momentum, _native_momentum),
    "adam": Family(Adam, _native_adam),
    "adagrad": Family(Adagrad, _native_adagrad),
    "rmsprop": Family(RMSProp, _native_rmsprop),
    "ftrl": Family(Ftrl, _native_ftrl),
}
ALIASES = {"sgd": "gradient_descent"}
NAMES = tuple(FAMILIES) + tuple(ALIASES)


def family(name: str) -> Family:
    """The family of `name` ("adam", "sgd", …); a clear error for anything else."""
    key = ALIASES.get(name, name)
    if key not in FAMILIES:
        raise ValueError(f"unknown optimizer {name!r}; expected one of {', '.join(NAMES)}.")
    return FAMILIES[key]


def make_optimizer(name: str, flavour: str = "exact", **tf1_kwargs: Any) -> keras.optimizers.Optimizer:
    """The `flavour` optimizer for TF1 optimizer `name`, from TF1's constructor arguments.

    Example: ``make_optimizer("adam", "native", learning_rate=1e-3)`` is
    ``keras.optimizers.Adam(1e-3, beta_1=0.9, beta_2=0.999, epsilon=1e-8)``.
    """
    chosen = family(name)
    if flavour not in FLAVOURS:
        raise ValueError(f"unknown optimizer flavour {flavour!r}; expected one of {', '.join(FLAVOURS)}.")
    if flavour == "native":
        unknown = sorted(set(tf1_kwargs) - set(inspect.signature(chosen.exact).parameters))
        if unknown:
            raise TypeError(f"{chosen.tf1_class} takes no argument(s) {unknown}.")
    return getattr(chosen, flavour)(**tf1_kwargs)
