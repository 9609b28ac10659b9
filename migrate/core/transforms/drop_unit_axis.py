"""`drop_unit_axis(axis)`: the TF1 weight has one more axis of size 1 than the Keras weight.

When: TF1 code ran a 2-D op on data with a dummy axis (``conv2d`` on
[N, length, emb, 1]) and Keras uses the 1-D layer; `conv2d_as_conv1d` is the
common case and is inferred, this general form is named explicitly.
"""
from __future__ import annotations

from migrate.core.transforms.base import Shape, Transform, one_to_one, register, show_shape


def drop_unit_axis(axis: int | None = None) -> Transform:
    """Remove TF1 axis `axis` (size 1); None: the one unit axis whose removal gives the Keras shape."""
    name = f"drop_unit_axis({axis})" if axis is not None else "drop_unit_axis"

    def candidates(tf1: Shape, keras: Shape) -> list[int]:
        axes = [axis % len(tf1)] if axis is not None and tf1 else range(len(tf1))
        return [a for a in axes if tf1[a] == 1 and tf1[:a] + tf1[a + 1:] == tuple(keras)]

    def check(tf1: Shape, keras: Shape) -> str | None:
        if len(tf1) != len(keras) + 1 or not candidates(tf1, keras):
            return f"{name} cannot turn {show_shape(tf1)} into {show_shape(keras)} (no axis of size 1 to drop)"
        return None

    return Transform(
        name,
        forward=lambda values, shapes: [values[0].reshape(shapes[0])],
        inverse=lambda values, shapes: [values[0].reshape(shapes[0])],
        check=one_to_one(check), family="reshape", summary="an axis of size 1 removed",
    )


TRANSFORM = register(drop_unit_axis())
