"""`tf.contrib.learn`'s RNN feature keys (`rnn_common.RNNKeys`): string constants a model_fn reads its features by."""
from __future__ import annotations

from migrate.port.contrib.registry import ContribTwin


class RNNKeys:
    """TF 1.15's `rnn_common.RNNKeys` (tensorflow/contrib/learn/python/learn/estimators/rnn_common.py)."""

    FINAL_STATE_KEY = "final_state"
    LABELS_KEY = "__labels__"
    SEQUENCE_LENGTH_KEY = "sequence_length"
    STATE_PREFIX = "rnn_cell_state"


TWINS = (
    ContribTwin("learn.python.learn.estimators.rnn_common.RNNKeys", lambda: RNNKeys,
                "the same string constants (sequence_length, …)"),
)
