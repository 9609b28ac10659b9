"""`GradientDescent`: `tf.compat.v1.train.GradientDescentOptimizer` as a Keras optimizer, bit for bit.

Replaces ``tf.compat.v1.train.GradientDescentOptimizer(learning_rate,
use_locking=False, name="GradientDescent")``. Each step runs TF1's kernel
``ResourceApplyGradientDescent``: ``var -= lr * g``; a sparse gradient
(embedding lookup) is scatter-added as ``-g * lr`` row by row, as TF1 does.

Differences from `keras.optimizers.SGD(learning_rate)` (momentum 0): none in
the dense arithmetic — Keras adds ``-g * lr``, which rounds the same — so the
native optimizer stays bit-identical on dense gradients (measured: 0.0
drift at step 1000, see "Exact or native optimizer?" in docs/guide/continuing.md).

Sparse gradients: TF1 applies what the lookup's gradient holds, and that
depends on the TF1 op. After `tf.nn.embedding_lookup`/`tf.gather` a row
looked up k times in the batch appears k times, and TF1 subtracts the k
parts one after the other — as this class does with a Keras `Embedding`'s
gradient, while Keras 2.15's `SGD` sums them first (1 ulp apart). After
`embedding_lookup_sparse` (feature columns' embedding and linear columns)
TF1's gradient already holds each row once, summed: there Keras' `SGD`,
which sums the `Embedding`'s repeated rows the same way, matches and this
class does not (examples/text_cnn and examples/wide_deep show both).

This class also exists so every TF1 optimizer has a twin of the same shape,
and TF1's name and `use_locking`.

Slots: none.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from modern.optimizers.base import TF1ExactOptimizer, handle_of


class GradientDescent(TF1ExactOptimizer):
    """Plain gradient descent with TF1's kernel.

    Args:
        learning_rate: float, Keras `LearningRateSchedule` or callable (TF1: required).
        use_locking: passed to the kernel, as in TF1.
        name: TF1's default "GradientDescent".

    Example:
        model.compile(optimizer=GradientDescent(0.05))
    """

    TF1_CLASS = "tf.compat.v1.train.GradientDescentOptimizer"
    DEDUPLICATE_SPARSE = False

    def __init__(self, learning_rate: Any, use_locking: bool = False, name: str = "GradientDescent", **kwargs: Any) -> None:
        super().__init__(learning_rate, name, use_locking, **kwargs)

    def apply_dense(self, gradient: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        return tf.raw_ops.ResourceApplyGradientDescent(
            var=handle_of(variable), alpha=learning_rate, delta=gradient, use_locking=self.use_locking
        )

    def apply_sparse(self, values: tf.Tensor, indices: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        """TF1 scatter-adds ``-g * lr`` row by row, a duplicated row once per occurrence (no summing first)."""
        return tf.raw_ops.ResourceScatterAdd(resource=handle_of(variable), indices=indices, updates=-values * learning_rate)
