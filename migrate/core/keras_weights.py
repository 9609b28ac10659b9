"""A Keras model's weights as the weight mapping sees them (TensorFlow-free: it only reads attributes).

The parity engine's Keras side and `modern`'s TF1-checkpoint loader list a
model's weights the same way — unique paths, the class of the layer that owns
each, the order TensorFlow created them in — so a `variable_map` written for
`migrate parity` loads a TF1 checkpoint into the same model.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from migrate.core.mapping import Weight, normalise, unique_names


def weight_path(variable: Any) -> str:
    """Keras 3's `path` ("dense/kernel"); on Keras 2 the variable name without ":0"."""
    return normalise(getattr(variable, "path", None) or variable.name)


def creation_rank(variable: Any) -> int:
    """The order TensorFlow created the variable in (its eager uid), -1 when unknown.

    A functional model lists its weights topologically (a shortcut after its
    block); TF1 code creates variables in code order, as Keras creates its
    layers' weights when the model is first called.
    """
    for candidate in (variable, getattr(variable, "_value", None)):
        unique_id = getattr(candidate, "_unique_id", None)
        if isinstance(unique_id, str) and unique_id.rpartition("_")[2].isdigit():
            return int(unique_id.rpartition("_")[2])
    return -1


def layer_classes(model: Any) -> dict[int, str]:
    """id(variable) → the class of the model's layer that owns it (nested layers count as their top-level layer)."""
    owners: dict[int, str] = {}
    for layer in getattr(model, "layers", []):
        for variable in layer.weights:
            owners.setdefault(id(variable), type(layer).__name__)
    return owners


def dtype_name(variable: Any) -> str:
    """"float32" for a Keras 3 variable (its dtype is a string) and a Keras 2 one (a tf.DType)."""
    dtype = variable.dtype
    return str(getattr(dtype, "name", dtype))


def weight_records(model: Any, variables: Sequence[Any]) -> list[Weight]:
    """One mapping `Weight` per variable of `model`: unique name, shape, dtype, owning layer class, creation rank."""
    owners = layer_classes(model)
    names = unique_names([weight_path(variable) for variable in variables])
    return [Weight(name, tuple(variable.shape), dtype_name(variable), owners.get(id(variable), ""),
                   creation_rank(variable)) for name, variable in zip(names, variables)]
