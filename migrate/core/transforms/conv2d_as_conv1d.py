"""`conv2d_as_conv1d`: a TF1 ``conv2d`` filter (k, emb, 1, out) → a `keras.layers.Conv1D` kernel (k, emb, out).

When: TF1 text models (Kim's CNN and its descendants) expand the embedded
sequence to [N, length, emb, 1] and convolve it with a (k, emb, 1, out)
filter and VALID padding: that is a Conv1D over the sequence with emb input
channels. Inferred when the shapes are (k, e, 1, o) and (k, e, o).
"""
from __future__ import annotations

from migrate.core.transforms.base import Shape, Transform, one_to_one, register, show_shape


def _check(tf1: Shape, keras: Shape) -> str | None:
    if len(tf1) != 4 or tf1[2] != 1 or (tf1[0], tf1[1], tf1[3]) != tuple(keras):
        return f"conv2d_as_conv1d turns a (k, emb, 1, out) filter into (k, emb, out), not {show_shape(tf1)} into {show_shape(keras)}"
    return None


TRANSFORM = register(Transform(
    "conv2d_as_conv1d",
    forward=lambda values, shapes: [values[0].reshape(shapes[0])],
    inverse=lambda values, shapes: [values[0].reshape(shapes[0])],
    check=one_to_one(_check), inferable=True, family="reshape",
    summary="conv2d filter (k, emb, 1, out) → Conv1D kernel (k, emb, out)",
))
