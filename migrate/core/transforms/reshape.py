"""`reshape`: the same numbers in another shape (row-major), e.g. (768, 768) → (768, 12, 64).

When: the Keras layer keeps a weight with more or fewer axes than the TF1
code did and no named transform says which (a named one is preferred: it
checks that the axes are the expected ones). Never inferred.
"""
from __future__ import annotations

from migrate.core.transforms.base import Shape, Transform, elements, one_to_one, register, show_shape


def _check(tf1: Shape, keras: Shape) -> str | None:
    if elements(tf1) != elements(keras):
        return (f"reshape cannot turn {show_shape(tf1)} ({elements(tf1)} elements) into {show_shape(keras)} "
                f"({elements(keras)} elements)")
    return None


def reshape() -> Transform:
    """Reshape the TF1 value to the Keras weight's shape (and back)."""
    return Transform(
        "reshape",
        forward=lambda values, shapes: [values[0].reshape(shapes[0])],
        inverse=lambda values, shapes: [values[0].reshape(shapes[0])],
        check=one_to_one(_check), family="reshape",
        summary="the same numbers in the Keras weight's shape (row-major)",
    )


TRANSFORM = register(reshape())
