"""Which Keras weight could take a TF1 variable by shape: the same shape, or one named transform (TensorFlow-free).

A transform is inferred only when exactly one inferable transform fits (or
several of one family, which give the same numbers); one whose output shape
does not fit is never a candidate.
"""
from __future__ import annotations

import functools

from migrate.core.mapping.records import Shape
from migrate.core.transforms import REGISTRY, Transform


def fitting_transforms(tf1: Shape, keras: Shape) -> list[Transform]:
    """The inferable one-to-one transforms that turn `tf1` into `keras` (shapes that differ)."""
    if tf1 == keras:
        return []
    return [t for t in REGISTRY.values() if t.inferable and t.sources == 1 and t.targets == 1 and t.fits([tf1], [keras]) is None]


@functools.lru_cache(maxsize=4096)
def inferred_transform(tf1: Shape, keras: Shape) -> tuple[bool, Transform | None]:
    """(fits, transform): equal shapes need none; else exactly one fitting transform (or one family of equal results)."""
    if tf1 == keras:
        return True, None
    fitting = fitting_transforms(tf1, keras)
    families = {t.family or t.name for t in fitting}
    return (True, fitting[0]) if len(families) == 1 else (False, None)
