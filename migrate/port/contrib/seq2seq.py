"""`tf.contrib.seq2seq.sequence_loss`, as TF 1.15 writes it (tensorflow/contrib/seq2seq/python/ops/loss.py).

The weighted sparse softmax cross-entropy of every step, reduced by
`average_across_timesteps`/`average_across_batch` (a weighted mean:
`div_no_nan` by the summed weights) or `sum_over_timesteps`/`sum_over_batch`
(divided by the count of non-zero weights). The decoders, helpers and attention
wrappers of `tf.contrib.seq2seq` have no core twin.
"""
from __future__ import annotations

import tensorflow as tf

from migrate.port.contrib.registry import ContribTwin


def _reduced(crossent, weights, average: tuple[bool, bool], total: tuple[bool, bool], logits):
    """TF 1.15's reductions; `average` and `total` are (across timesteps, across batch)."""
    if all(average):
        return tf.math.divide_no_nan(tf.reduce_sum(crossent), tf.reduce_sum(weights))
    if all(total):
        count = tf.cast(tf.math.count_nonzero(weights), crossent.dtype)
        return tf.math.divide_no_nan(tf.reduce_sum(crossent), count)
    crossent = tf.reshape(crossent, tf.shape(logits)[0:2])
    if any(average):
        axis = [0] if average[1] else [1]
        return tf.math.divide_no_nan(tf.reduce_sum(crossent, axis=axis), tf.reduce_sum(weights, axis=axis))
    if any(total):
        axis = [0] if total[1] else [1]
        count = tf.cast(tf.math.count_nonzero(weights, axis=axis), dtype=crossent.dtype)
        return tf.math.divide_no_nan(tf.reduce_sum(crossent, axis=axis), count)
    return crossent


def sequence_loss(logits, targets, weights, average_across_timesteps=True, average_across_batch=True,
                  sum_over_timesteps=False, sum_over_batch=False, softmax_loss_function=None, name=None):
    """TF 1.15's `sequence_loss` (the weighted mean log-perplexity per symbol by default)."""
    if len(logits.get_shape()) != 3:
        raise ValueError("Logits must be a [batch_size x sequence_length x logits] tensor")
    if len(targets.get_shape()) != 2:
        raise ValueError("Targets must be a [batch_size x sequence_length] tensor")
    if len(weights.get_shape()) != 2:
        raise ValueError("Weights must be a [batch_size x sequence_length] tensor")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to True at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at same time.")
    with tf.compat.v1.name_scope(name, "sequence_loss", [logits, targets, weights]):
        num_classes = tf.shape(logits)[2]
        logits_flat = tf.reshape(logits, [-1, num_classes])
        targets = tf.reshape(targets, [-1])
        if softmax_loss_function is None:
            crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits_flat)
        else:
            crossent = softmax_loss_function(labels=targets, logits=logits_flat)
        crossent *= tf.reshape(weights, [-1])
        return _reduced(crossent, weights, (average_across_timesteps, average_across_batch),
                        (sum_over_timesteps, sum_over_batch), logits)


TWINS = (
    ContribTwin("seq2seq.sequence_loss", lambda: sequence_loss,
                "tf.nn.sparse_softmax_cross_entropy_with_logits per step × weights, reduced with tf.math.divide_no_nan "
                "as TF 1.15 does"),
)
