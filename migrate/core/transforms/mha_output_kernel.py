"""`mha_output_kernel`: a TF1 attention output projection (heads·head_dim, d) → `MultiHeadAttention` output kernel (heads, head_dim, d).

When: TF1 code merges the heads by reshaping and projects with a dense
layer; Keras' `MultiHeadAttention` contracts the head axes with an
einsum. The output bias (d,) needs no transform. Inferred when the shapes
are (h·k, d) and (h, k, d).
"""
from __future__ import annotations

from migrate.core.transforms.base import Shape, Transform, one_to_one, register, show_shape


def _check(tf1: Shape, keras: Shape) -> str | None:
    if len(tf1) != 2 or len(keras) != 3 or tf1[0] != keras[0] * keras[1] or tf1[1] != keras[2]:
        return (f"mha_output_kernel turns (heads·head_dim, d) into (heads, head_dim, d), not {show_shape(tf1)} "
                f"into {show_shape(keras)}")
    return None


TRANSFORM = register(Transform(
    "mha_output_kernel",
    forward=lambda values, shapes: [values[0].reshape(shapes[0])],
    inverse=lambda values, shapes: [values[0].reshape(shapes[0])],
    check=one_to_one(_check), inferable=True, family="reshape",
    summary="dense (heads·head_dim, d) → MultiHeadAttention output kernel (heads, head_dim, d)",
))
