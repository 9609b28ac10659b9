"""`mha_qkv_bias`: a TF1 attention projection bias (heads·head_dim,) → `MultiHeadAttention` query/key/value bias (heads, head_dim).

When: the bias of the projection `mha_qkv_kernel` converts. Inferred when
the shapes are (h·k,) and (h, k).
"""
from __future__ import annotations

from migrate.core.transforms.base import Shape, Transform, one_to_one, register, show_shape


def _check(tf1: Shape, keras: Shape) -> str | None:
    if len(tf1) != 1 or len(keras) != 2 or tf1[0] != keras[0] * keras[1]:
        return f"mha_qkv_bias turns (heads·head_dim,) into (heads, head_dim), not {show_shape(tf1)} into {show_shape(keras)}"
    return None


TRANSFORM = register(Transform(
    "mha_qkv_bias",
    forward=lambda values, shapes: [values[0].reshape(shapes[0])],
    inverse=lambda values, shapes: [values[0].reshape(shapes[0])],
    check=one_to_one(_check), inferable=True, family="reshape",
    summary="dense bias (heads·head_dim,) → MultiHeadAttention query/key/value bias (heads, head_dim)",
))
