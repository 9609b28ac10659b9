"""How far apart two values of the same variable (or loss) are: max |Δ|, relative, and in ulp.

An ulp here is the spacing of the dtype at the value's scale (its largest
magnitude): "3 ulp" means the two arrays differ by at most three steps of the
last bit of their largest element. Parts differing by a few ulp are rounding
(the same sum in another order: `tf.gradients` vs `GradientTape`, fused vs
composed kernels); a wrong layer, loss or update differs by millions.

A variable far smaller than the model's weights is numerically zero — a bias
in front of batch norm, whose gradient cancels exactly in real arithmetic and
leaves only rounding noise in float32 — so its scale is never taken below
`NEGLIGIBLE` of the model's largest weight (`model_scale`): noise there is
rounding, not a relative difference of 100%.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

ROUNDING_ULPS = 64
"""At most this many ulp at the variable's scale is called a rounding-level difference."""
NEGLIGIBLE = 1e-3
"""A variable's scale is taken as at least this fraction of the model's largest weight."""


@dataclass(frozen=True)
class Difference:
    """Two arrays compared: max |Δ|, |Δ| relative to the larger magnitude, and ulp at that magnitude."""

    max_abs: float
    relative: float
    ulps: float

    @property
    def none(self) -> bool:
        return self.max_abs == 0.0

    @property
    def rounding_level(self) -> bool:
        return 0.0 < self.ulps <= ROUNDING_ULPS

    def describe(self) -> str:
        if self.none:
            return "identical"
        ulps = "≥ 2^31" if self.ulps >= 2**31 else f"{self.ulps:.0f}"
        return f"max |Δ| {self.max_abs:.6g}, {ulps} ulp, relative {self.relative:.3g}"

    def as_dict(self) -> dict[str, float]:
        return {"max_abs_diff": self.max_abs, "relative": self.relative, "ulp": self.ulps}


def relative_to(max_abs: float, scale: float) -> float:
    """A largest |Δ| relative to a scale (the largest magnitude of the values compared): inf at scale 0.

    The one definition of a relative difference: `relative` (two numbers), `Difference.relative` (two arrays),
    the forward pass and the served answers (relative to the TF1 side's outputs).
    """
    return max_abs / scale if scale else math.inf


def relative(a: float, b: float) -> float:
    """|a − b| relative to the larger magnitude: 0.0 when equal, inf when only one is zero, NaN with a NaN.

    Per-step losses, the first step's loss, evaluation losses.
    """
    return 0.0 if a == b else relative_to(abs(a - b), max(abs(a), abs(b)))


def model_scale(values: Any) -> float:
    """The largest magnitude among arrays (a model's weights, its outputs), 0.0 for none; arrays that hold no numbers
    (a canned head's string classes) do not count."""
    arrays = [np.asarray(value) for value in values]
    return max((float(np.max(np.abs(array.astype(np.float64)))) for array in arrays
                if array.size and np.issubdtype(array.dtype, np.number)), default=0.0)


def difference(a: Any, b: Any, scale_floor: float = 0.0) -> Difference:
    """Compare two arrays (or scalars) of one variable; a NaN or another shape is an infinite difference.

    `scale_floor` (`NEGLIGIBLE` × the model's scale) is the least scale the ulp and relative figures use.
    """
    left, right = np.asarray(a), np.asarray(b)
    if left.shape != right.shape:
        return Difference(math.inf, math.inf, math.inf)
    if left.size == 0 or np.array_equal(left, right):
        return Difference(0.0, 0.0, 0.0)
    if not np.issubdtype(left.dtype, np.number):
        return Difference(math.inf, math.inf, math.inf)
    delta = np.abs(left.astype(np.float64) - right.astype(np.float64))
    if np.isnan(delta).any():
        return Difference(math.inf, math.inf, math.inf)
    largest = float(np.max(delta))
    scale = max(float(np.max(np.abs(left))), float(np.max(np.abs(right))), scale_floor)
    dtype = left.dtype if np.issubdtype(left.dtype, np.floating) else np.dtype(np.float32)
    spacing = float(np.spacing(dtype.type(scale))) if scale else float(np.finfo(dtype).tiny)
    return Difference(largest, relative_to(largest, scale), math.ceil(largest / spacing))
