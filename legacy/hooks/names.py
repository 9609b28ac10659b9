"""Tensor names for hooks built before the graph exists (LoggingTensorHook, FinalOpsHook, ...).

TF1 code passed a variable's name ("global_step") to get its value. In TF 2.x
graphs `get_variable` makes resource variables: the name resolves to the
variable's *handle*, and the value is the tensor ``<name>/Read/ReadVariableOp:0``.
"""
from __future__ import annotations

from migrate.core.mnist_model import LOSS_TENSOR_NAME

LOSS = LOSS_TENSOR_NAME


def value_of(variable_name: str) -> str:
    """The tensor name that reads the value of a (resource) variable, e.g. `value_of("global_step")`."""
    return f"{variable_name}/Read/ReadVariableOp:0"


GLOBAL_STEP = value_of("global_step")
