"""`lstm_kernel`: TF1 `LSTMCell` / `BasicLSTMCell` / `LSTMBlockCell` kernel → `keras.layers.LSTM` kernel + recurrent_kernel.

When: the TF1 cell keeps one kernel (input + units, 4·units) applied to
``concat([x, h])`` with gates i, j, f, o (`LSTMBlockCell`: i, ci, f, o, the
same layout); Keras' LSTM keeps ``kernel`` (input, 4·units) for x and
``recurrent_kernel`` (units, 4·units) for h, gates i, f, c, o. Map the TF1
kernel onto both Keras weights in that order::

    "rnn/lstm_cell/kernel": (["lstm/lstm_cell/kernel", "lstm/lstm_cell/recurrent_kernel"], "lstm_kernel")

Keras computes ``x·Wx + h·Wh`` where TF1 computes ``[x, h]·W``: the same
sum in another order, so expect rounding-level differences (the
`rounding` note says so in verdicts). Peephole or projection weights
(`use_peepholes`, `num_proj`) have no Keras LSTM counterpart.
"""
from __future__ import annotations

from collections.abc import Sequence

from migrate.core.transforms.base import Shape, Transform, register, show_shapes
from migrate.core.transforms.split import split

TF1_TO_KERAS_GATES = (0, 2, 1, 3)
"""Keras gate k is TF1 gate ``TF1_TO_KERAS_GATES[k]``: i, j(=c), f, o → i, f, c, o."""


def _check(tf1: Sequence[Shape], keras: Sequence[Shape]) -> str | None:
    (whole,), pieces = tf1, keras
    if (len(pieces) != 2 or len(whole) != 2 or any(len(piece) != 2 for piece in pieces)
            or pieces[1][1] != 4 * pieces[1][0] or pieces[0][1] != pieces[1][1] or whole != (pieces[0][0] + pieces[1][0], pieces[0][1])):
        return ("lstm_kernel turns a TF1 LSTM kernel (input + units, 4·units) into Keras [kernel (input, 4·units), "
                f"recurrent_kernel (units, 4·units)], not {show_shapes(tf1)} into {show_shapes(keras)}")
    return None


_split = split(axis=0, gates=TF1_TO_KERAS_GATES)
TRANSFORM = register(Transform(
    "lstm_kernel", _split.forward, _split.inverse, _check, sources=1, targets=2, inferable=True,
    rounding="Keras' LSTM computes x·W_x + h·W_h where TF1's cell computes [x, h]·W (the same sum in another order)",
    summary="TF1 LSTM kernel [x; h] (gates i, j, f, o) → Keras kernel + recurrent_kernel (gates i, f, c, o)",
))
