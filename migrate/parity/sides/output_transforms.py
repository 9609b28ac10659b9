"""How the Keras output maps onto the model_fn's prediction: the pair's `OUTPUT_TRANSFORM`, or a known one found.

A `model_fn` often exports only `probabilities` (and `classes`) while the
Keras model outputs logits, its loss built with ``from_logits=True``. The
pair says so with ``OUTPUT_TRANSFORM = "softmax"`` (or ``"sigmoid"``, or a
function of the Keras output tensor); the forward stage then compares the
transformed Keras output. Without it, when the raw outputs differ, each
known transform is tried and a match is reported as such. The transform
runs in TensorFlow, inside the same `tf.function` as the model, so it uses
the kernels the model_fn's own `tf.nn.softmax` uses.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tensorflow as tf

KNOWN = {"softmax": tf.nn.softmax, "sigmoid": tf.math.sigmoid}
"""Transforms a pair can name, tried in this order when none is named."""


class UnknownTransform(ValueError):
    """An `OUTPUT_TRANSFORM` that is neither a known name nor a function."""


def resolve(transform: Any) -> tuple[str, Callable[[Any], Any]] | None:
    """(display name, function) for a pair's `OUTPUT_TRANSFORM` value; None for none."""
    if transform is None:
        return None
    if isinstance(transform, str):
        if transform not in KNOWN:
            raise UnknownTransform(f"OUTPUT_TRANSFORM {transform!r} is not one of {', '.join(KNOWN)} (or a function)")
        return transform, KNOWN[transform]
    if callable(transform):
        return getattr(transform, "__name__", "OUTPUT_TRANSFORM"), transform
    raise UnknownTransform(f"OUTPUT_TRANSFORM is a {type(transform).__name__}; give {', '.join(KNOWN)} or a function")


def on_each_output(transform: Callable[[Any], Any] | None) -> Callable[[Any], Any]:
    """`transform` applied to each floating-point tensor of the Keras output (a dict of outputs: each of them; class
    ids and strings kept), so a model with several outputs is compared through it as a model with one is."""
    if transform is None:
        return lambda outputs: outputs
    return lambda outputs: tf.nest.map_structure(
        lambda tensor: transform(tensor) if tf.as_dtype(tensor.dtype).is_floating else tensor, outputs)
