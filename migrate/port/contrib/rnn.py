"""`tf.contrib.rnn`: TF 1.15 re-exports the core cells and static RNNs there, so their twins are the core objects.

The cells (`LSTMCell`, `GRUCell`, `BasicLSTMCell`, `MultiRNNCell`,
`DropoutWrapper`, `LSTMStateTuple`, …) are ``tf.compat.v1.nn.rnn_cell``'s;
`static_rnn`, `static_bidirectional_rnn` and `static_state_saving_rnn` are
``tf.compat.v1.nn``'s. The cells only contrib has (`LayerNormBasicLSTMCell`,
`AttentionCellWrapper`, the fused block cells) have no core twin and are
refused by name.
"""
from __future__ import annotations

import tensorflow as tf

from migrate.port.contrib.registry import ContribTwin

TWINS = (
    ContribTwin("rnn", lambda: tf.compat.v1.nn.rnn_cell, "tf.compat.v1.nn.rnn_cell", namespace=True),
    ContribTwin("rnn.static_rnn", lambda: tf.compat.v1.nn.static_rnn, "tf.compat.v1.nn.static_rnn (the same function)"),
    ContribTwin("rnn.static_bidirectional_rnn", lambda: tf.compat.v1.nn.static_bidirectional_rnn,
                "tf.compat.v1.nn.static_bidirectional_rnn (the same function)"),
    ContribTwin("rnn.static_state_saving_rnn", lambda: tf.compat.v1.nn.static_state_saving_rnn,
                "tf.compat.v1.nn.static_state_saving_rnn (the same function)"),
)
