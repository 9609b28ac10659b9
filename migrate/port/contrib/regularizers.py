"""`tf.contrib.layers.l1_regularizer`, `l2_regularizer`, `l1_l2_regularizer`, `sum_regularizer` and
`apply_regularization`, as TF 1.15 writes them (tensorflow/contrib/layers/python/layers/regularizers.py)."""
from __future__ import annotations

import numbers

import tensorflow as tf

from migrate.port.contrib.registry import ContribTwin


def _checked(scale) -> bool:
    """Whether `scale` enables the regularizer (0.0 disables it); integers and negatives raise as in TF 1.15."""
    if isinstance(scale, numbers.Integral):
        raise ValueError(f"scale cannot be an integer: {scale}")
    if isinstance(scale, numbers.Real):
        if scale < 0.0:
            raise ValueError(f"Setting a scale less than 0 on a regularizer: {scale:g}.")
        return scale != 0.0
    return True


def l1_regularizer(scale, scope=None):
    """``scale * reduce_sum(abs(weights))`` in name scope ``l1_regularizer``."""
    if not _checked(scale):
        return lambda _: None

    def l1(weights, name=None):
        with tf.compat.v1.name_scope(scope, "l1_regularizer", [weights]) as name:
            my_scale = tf.convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return tf.multiply(my_scale, tf.reduce_sum(tf.abs(weights)), name=name)

    return l1


def l2_regularizer(scale, scope=None):
    """``scale * tf.nn.l2_loss(weights)`` (half the sum of squares) in name scope ``l2_regularizer``."""
    if not _checked(scale):
        return lambda _: None

    def l2(weights):
        with tf.compat.v1.name_scope(scope, "l2_regularizer", [weights]) as name:
            my_scale = tf.convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return tf.multiply(my_scale, tf.nn.l2_loss(weights), name=name)

    return l2


def sum_regularizer(regularizer_list, scope=None):
    """The `add_n` of the regularizers that are not None, in name scope ``sum_regularizer``."""
    regularizer_list = [regularizer for regularizer in regularizer_list if regularizer is not None]
    if not regularizer_list:
        return None

    def sum_reg(weights):
        with tf.compat.v1.name_scope(scope, "sum_regularizer", [weights]) as name:
            return tf.add_n([regularizer(weights) for regularizer in regularizer_list], name=name)

    return sum_reg


def l1_l2_regularizer(scale_l1=1.0, scale_l2=1.0, scope=None):
    return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)], scope=scope or "l1_l2_regularizer")


def apply_regularization(regularizer, weights_list=None):
    """The summed penalty of `regularizer` over `weights_list` (``GraphKeys.WEIGHTS`` by default), added to
    ``REGULARIZATION_LOSSES``."""
    if not weights_list:
        weights_list = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.WEIGHTS)
    if not weights_list:
        raise ValueError("No weights to regularize.")
    with tf.compat.v1.name_scope("get_regularization_penalty", values=weights_list) as scope:
        penalties = [regularizer(weights) for weights in weights_list]
        penalties = [penalty if penalty is not None else tf.constant(0.0) for penalty in penalties]
        for penalty in penalties:
            if penalty.get_shape().ndims != 0:
                raise ValueError("regularizer must return a scalar Tensor instead of a Tensor with rank "
                                 f"{penalty.get_shape().ndims}.")
        summed_penalty = tf.add_n(penalties, name=scope)
        tf.compat.v1.add_to_collection(tf.compat.v1.GraphKeys.REGULARIZATION_LOSSES, summed_penalty)
        return summed_penalty


TWINS = (
    ContribTwin("layers.l1_regularizer", lambda: l1_regularizer, "scale · reduce_sum(abs(w)), as in TF 1.15"),
    ContribTwin("layers.l2_regularizer", lambda: l2_regularizer, "scale · tf.nn.l2_loss(w) (half the sum of squares), "
                "as in TF 1.15"),
    ContribTwin("layers.l1_l2_regularizer", lambda: l1_l2_regularizer, "the sum of the l1 and l2 penalties, as in TF 1.15"),
    ContribTwin("layers.sum_regularizer", lambda: sum_regularizer, "tf.add_n of the penalties, as in TF 1.15"),
    ContribTwin("layers.apply_regularization", lambda: apply_regularization,
                "tf.add_n of the penalties over the weights, added to REGULARIZATION_LOSSES, as in TF 1.15"),
)
