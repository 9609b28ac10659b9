"""The training configuration carried from the TRAIN graph: the optimizer → its TF1-exact twin in `modern.optimizers`.

Each TF1 optimizer class maps to the twin of the same updates and the
attributes its constructor stored (`OPTIMIZER_TWINS`); a learning rate that is
a tensor (a schedule on the global step), a wrapped optimizer or gradient
processing between `compute_gradients` and `apply_gradients` is refused with
the file:line of the `minimize` call, until twins for them exist.
"""
from __future__ import annotations

from dataclasses import dataclass

import tensorflow as tf

from migrate.port.records import Conversion, Problem

OPTIMIZER_TWINS: dict[str, tuple[str, dict[str, str]]] = {
    "GradientDescentOptimizer": ("GradientDescent", {"learning_rate": "_learning_rate"}),
    "AdamOptimizer": ("Adam", {"learning_rate": "_lr", "beta1": "_beta1", "beta2": "_beta2", "epsilon": "_epsilon"}),
    "MomentumOptimizer": ("Momentum", {"learning_rate": "_learning_rate", "momentum": "_momentum",
                                       "use_nesterov": "_use_nesterov"}),
    "AdagradOptimizer": ("Adagrad", {"learning_rate": "_learning_rate",
                                     "initial_accumulator_value": "_initial_accumulator_value"}),
    "RMSPropOptimizer": ("RMSProp", {"learning_rate": "_learning_rate", "decay": "_decay", "momentum": "_momentum",
                                     "epsilon": "_epsilon", "centered": "_centered"}),
    "FtrlOptimizer": ("Ftrl", {"learning_rate": "_learning_rate", "learning_rate_power": "_learning_rate_power",
                               "initial_accumulator_value": "_initial_accumulator_value",
                               "l1_regularization_strength": "_l1_regularization_strength",
                               "l2_regularization_strength": "_l2_regularization_strength",
                               "l2_shrinkage_regularization_strength": "_l2_shrinkage_regularization_strength"}),
}
"""TF1 optimizer class → (its twin in `modern.optimizers`, twin keyword → the TF1 instance attribute)."""
OPTIMIZER_NAMES = ("sgd", "adam", "momentum", "adagrad", "rmsprop", "ftrl", "gradient_descent", "gd")
"""Values tried for a string param that selects the optimizer (`probe` in the traced porter)."""


@dataclass(frozen=True)
class OptimizerPlan:
    twin: str
    arguments: str
    where: str
    tf1: str

    @property
    def constructor(self) -> str:
        return f"{self.twin}({self.arguments})"

    @property
    def conversion(self) -> Conversion:
        return Conversion(self.where, f"tf.compat.v1.train.{self.tf1}", f"modern.optimizers.{self.constructor}", "training")


def plan_optimizer(recorded, spell) -> OptimizerPlan | Problem:
    """The twin of one recorded `apply_gradients` call, or the problem that stops it."""
    optimizer = recorded.optimizer
    kind = type(optimizer).__name__
    if kind not in OPTIMIZER_TWINS:
        return Problem(recorded.where, f"the optimizer {kind} has no TF1-exact twin",
                       f"use one of {', '.join(sorted(OPTIMIZER_TWINS))}, or port the training step by hand")
    twin, attributes = OPTIMIZER_TWINS[kind]
    arguments = []
    for keyword, attribute in attributes.items():
        value = getattr(optimizer, attribute, None)
        if value is None:
            continue
        if isinstance(value, (tf.Tensor, tf.Variable)) or callable(value):
            return Problem(recorded.where, f"{kind}'s {keyword} is a tensor (a schedule on the global step?)",
                           "give it as a number, or port the schedule by hand as a keras LearningRateSchedule")
        arguments.append(f"{keyword}={value!r}" if isinstance(value, bool) else f"{keyword}={spell(value)}")
    for gradient, _ in recorded.grads_and_vars:
        if gradient is not None and not gradient.op.name.startswith("gradients"):
            return Problem(recorded.where, f"the gradients are processed before apply_gradients ({gradient.op.type} "
                           f"{gradient.op.name})", "clipping and other gradient processing have no twin yet: port it by hand")
    return OptimizerPlan(twin, ", ".join(arguments), recorded.where, kind)
