"""The training configuration carried from the TRAIN graph: the optimizer → its TF1-exact twin in `modern.optimizers`.

Each TF1 optimizer class maps to the twin of the same updates and the
attributes its constructor stored (`OPTIMIZER_TWINS`); a learning rate that is
a tensor (a schedule on the global step), a wrapped optimizer or gradient
processing between `compute_gradients` and `apply_gradients` is refused with
the file:line of the `minimize` call, until twins for them exist. A `minimize` of
another loss than the one the EstimatorSpec reports is carried (`minimized_loss`).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
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
OPTIMIZE_LOSS_NAMES = ("SGD", "Adam", "Momentum", "Adagrad", "RMSProp", "Ftrl")
"""The names `tf.contrib.layers.optimize_loss` takes (its `OPTIMIZER_CLS_NAMES`), tried instead when the param is
spelled so."""


def probed_names(value: str) -> tuple[str, ...]:
    """The optimizer names to try for a param whose value is `value`: in the spelling it uses."""
    return OPTIMIZE_LOSS_NAMES if value in OPTIMIZE_LOSS_NAMES else OPTIMIZER_NAMES


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

    @property
    def conversions(self) -> list[Conversion]:
        return [self.conversion]


_GRADIENTS_SCOPE = re.compile(r"(?:^|/)gradients(?:_\d+)?/")
"""The name scope `tf.gradients` puts its ops in, under whatever scope `minimize` ran (``head/gradients/…``)."""
_ASSIGNING = ("AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp", "Assign", "AssignAdd", "AssignSub")


def _differentiated(gradient) -> bool:
    return bool(_GRADIENTS_SCOPE.search(gradient.op.name))


def constant_variable(value) -> float | None:
    """The number a learning rate holds when it is a non-trainable variable initialised to a constant and never
    assigned in the graph (`tf.contrib.layers.optimize_loss` makes a float learning rate one); else None."""
    if not isinstance(value, tf.Variable) or value.trainable:
        return None
    with value.graph.as_default():  # the traced graph's variable: its properties are read in graph mode
        initial = tf.get_static_value(value.initial_value)
        handle, initializer = getattr(value, "handle", value), value.initializer
    if initial is None or getattr(initial, "shape", ()) != ():
        return None
    assigned = [op for op in handle.consumers() if op.type in _ASSIGNING and op is not initializer]
    if assigned:
        return None
    return float(str(np.float32(initial))) if initial.dtype == np.float32 else float(initial)  # 0.1, not 0.10000000149


def _clipping(recorded, calls, spell) -> str | Problem | None:
    """``global_clipnorm=…`` when the gradients come from `tf.clip_by_global_norm`; None when unprocessed."""
    gradients = [gradient for gradient, _ in recorded.grads_and_vars if gradient is not None]
    if all(_differentiated(gradient) for gradient in gradients):
        return None
    for call in calls:
        if call.api == "tf.clip_by_global_norm":
            clipped = {tensor.name for tensor in call.result[0] if tensor is not None}
            norm = call.arguments.get("clip_norm")
            if {gradient.name for gradient in gradients} <= clipped and not hasattr(norm, "op") \
                    and call.arguments.get("use_norm") is None:
                return f"global_clipnorm={spell(norm)}"
    odd = next(gradient for gradient in gradients if not _differentiated(gradient))
    return Problem(recorded.where, f"the gradients are processed before apply_gradients ({odd.op.type} {odd.op.name})",
                   "only tf.clip_by_global_norm has a twin (global_clipnorm); port other gradient processing by hand")


def minimized_loss(recorded, reported) -> tf.Tensor | None:
    """The tensor `minimize` differentiates when it is not the EstimatorSpec's loss (through identities), else None.

    A model_fn may report one loss and train on another (a canned-compatible total
    reported, its batch mean minimized): the port's `train_step` then differentiates
    this one and reports the other as the step's loss, as the Estimator logs its spec's.
    """
    minimized = getattr(recorded, "loss", None)
    if minimized is None or reported is None or not hasattr(minimized, "op"):
        return None
    tensor = reported
    while tensor is not minimized and tensor.op.type == "Identity":
        tensor = tensor.op.inputs[0]
    return None if tensor is minimized else minimized


def plan_optimizer(recorded, spell, calls=(),
                   schedule: Callable[[Any], str | Problem] | None = None) -> OptimizerPlan | Problem:
    """The twin of one recorded `apply_gradients` call, or the problem that stops it.

    `schedule(tensor)` writes a learning rate computed from the global step as a
    Keras `LearningRateSchedule` and returns the code constructing it.
    """
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
        if callable(value) and not isinstance(value, (tf.Tensor, tf.Variable)):
            value = value()
        value = constant_variable(value) if constant_variable(value) is not None else value
        if isinstance(value, (tf.Tensor, tf.Variable)):
            code = schedule(value) if schedule is not None and keyword == "learning_rate" else None
            if code is None or isinstance(code, Problem):
                return code or Problem(recorded.where, f"{kind}'s {keyword} is a tensor",
                                       "give it as a number (only the learning rate may be computed from the global step)")
            arguments.append(f"{keyword}={code}")
            continue
        arguments.append(f"{keyword}={value!r}" if isinstance(value, bool) else f"{keyword}={spell(value)}")
    clipping = _clipping(recorded, calls, spell)
    if isinstance(clipping, Problem):
        return clipping
    if clipping:
        arguments.append(clipping)
    return OptimizerPlan(twin, ", ".join(arguments), recorded.where, kind)
