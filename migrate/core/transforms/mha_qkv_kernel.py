"""`mha_qkv_kernel`: a TF1 attention projection (d, heads·head_dim) → `MultiHeadAttention` query/key/value kernel (d, heads, head_dim).

When: BERT-style TF1 code projects with ``dense(d, heads·head_dim)`` and
splits heads by reshaping; Keras' `MultiHeadAttention` keeps the heads as
their own axis. The numbers are the same, row-major. Inferred when the
shapes are (d, h·k) and (d, h, k).
"""
from __future__ import annotations

from migrate.core.transforms.base import Shape, Transform, one_to_one, register, show_shape


def _check(tf1: Shape, keras: Shape) -> str | None:
    if len(tf1) != 2 or len(keras) != 3 or tf1[0] != keras[0] or tf1[1] != keras[1] * keras[2]:
        return (f"mha_qkv_kernel turns (d, heads·head_dim) into (d, heads, head_dim), not {show_shape(tf1)} "
                f"into {show_shape(keras)}")
    return None


TRANSFORM = register(Transform(
    "mha_qkv_kernel",
    forward=lambda values, shapes: [values[0].reshape(shapes[0])],
    inverse=lambda values, shapes: [values[0].reshape(shapes[0])],
    check=one_to_one(_check), inferable=True, family="reshape",
    summary="dense (d, heads·head_dim) → MultiHeadAttention query/key/value kernel (d, heads, head_dim)",
))
