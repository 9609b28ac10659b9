"""`tf.contrib.layers.xavier_initializer` and `variance_scaling_initializer`, as TF 1.15 writes them.

TF 1.15's contrib initializer is a function of the shape that draws
`random_uniform(shape, -limit, limit)` or `truncated_normal(shape, 0, stddev)`
with ``limit = sqrt(3 * factor / n)`` and ``stddev = sqrt(1.3 * factor / n)``
(tensorflow/contrib/layers/python/layers/initializers.py). The uniform case is
the core `glorot_uniform_initializer` for ``factor=1, mode='FAN_AVG'``; the
truncated-normal one is not the core `variance_scaling_initializer` (which
divides by 0.8796… instead of multiplying by sqrt(1.3)), so it is rebuilt here.
"""
from __future__ import annotations

import math

import tensorflow as tf

from migrate.port.contrib.registry import ContribTwin


def variance_scaling_initializer(factor=2.0, mode="FAN_IN", uniform=False, seed=None, dtype=tf.float32):
    """TF 1.15's contrib `variance_scaling_initializer` (He initialisation by default)."""
    if not tf.as_dtype(dtype).is_floating:
        raise TypeError("Cannot create initializer for non-floating point type.")
    if mode not in ("FAN_IN", "FAN_OUT", "FAN_AVG"):
        raise TypeError(f"Unknown mode {mode} [FAN_IN, FAN_OUT, FAN_AVG]")

    def _initializer(shape, dtype=dtype, partition_info=None):
        if not tf.as_dtype(dtype).is_floating:
            raise TypeError("Cannot create initializer for non-floating point type.")
        shape = list(shape)
        if shape:
            fan_in = float(shape[-2]) if len(shape) > 1 else float(shape[-1])
            fan_out = float(shape[-1])
        else:
            fan_in = fan_out = 1.0
        for dimension in shape[:-2]:
            fan_in *= float(dimension)
            fan_out *= float(dimension)
        n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2.0}[mode]
        if uniform:
            limit = math.sqrt(3.0 * factor / n)
            return tf.random.uniform(shape, -limit, limit, dtype, seed=seed)
        return tf.random.truncated_normal(shape, 0.0, math.sqrt(1.3 * factor / n), dtype, seed=seed)

    return _initializer


def xavier_initializer(uniform=True, seed=None, dtype=tf.float32):
    """TF 1.15's `xavier_initializer`: `variance_scaling_initializer(1.0, 'FAN_AVG', uniform)`."""
    return variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=uniform, seed=seed, dtype=dtype)


TWINS = (
    ContribTwin("layers.xavier_initializer", lambda: xavier_initializer,
                "random_uniform(±sqrt(6 / (fan_in + fan_out))) (truncated normal with uniform=False), as TF 1.15 "
                "draws it"),
    ContribTwin("layers.xavier_initializer_conv2d", lambda: xavier_initializer, "xavier_initializer (the same function)"),
    ContribTwin("layers.variance_scaling_initializer", lambda: variance_scaling_initializer,
                "random_uniform(±sqrt(3·factor/n)) or truncated_normal(stddev sqrt(1.3·factor/n)), as TF 1.15 draws it"),
)
