"""`FeedFnHook`: feed every step's batch through `feed_dict`, the pre-`Dataset` way.

Before `tf.data`, input functions returned placeholders and a `FeedFnHook`
filled them in each `before_run` with whatever `feed_fn()` returned
(``{placeholder or its name: value}``); the feed is merged with other hooks'
feeds, and two hooks feeding the same tensor is an error. `feed_input_fn`
builds that pair for numpy arrays, in the same batch order as
`legacy.inputs.train_input(shuffle=False)`.

Twin: `modern/callbacks/feed_fn.py` — no callback: the per-step feed becomes a
batch yielded by a generator into `Dataset.from_generator`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import tensorflow as tf

FEED_IMAGES = "feed/images:0"
FEED_LABELS = "feed/labels:0"


def make_feed_fn_hook(feed_fn: Callable[[], dict[Any, Any]]) -> tf.compat.v1.train.FeedFnHook:
    """Call `feed_fn()` before every run and feed the dict it returns."""
    return tf.compat.v1.train.FeedFnHook(feed_fn)


def _batches(x: np.ndarray, y: np.ndarray, batch_size: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """`from_tensor_slices((x, y)).repeat().batch(batch_size)` in numpy: batches run across epochs."""
    position = 0
    while True:
        rows = np.arange(position, position + batch_size) % len(x)
        position = (position + batch_size) % len(x)
        yield x[rows], y[rows]


def feed_input_fn(
    x: np.ndarray, y: np.ndarray, *, batch_size: int
) -> tuple[Callable[[], tuple[tf.Tensor, tf.Tensor]], tf.compat.v1.train.FeedFnHook]:
    """An input function returning placeholders, and the hook that feeds them batch by batch, forever."""
    batches = _batches(np.asarray(x), np.asarray(y), batch_size)

    def input_fn() -> tuple[tf.Tensor, tf.Tensor]:
        with tf.name_scope("feed"):
            images = tf.compat.v1.placeholder(x.dtype, [None, *x.shape[1:]], name="images")
            labels = tf.compat.v1.placeholder(y.dtype, [None], name="labels")
        return images, labels

    def feed_fn() -> dict[str, np.ndarray]:
        images, labels = next(batches)
        return {FEED_IMAGES: images, FEED_LABELS: labels}

    return input_fn, make_feed_fn_hook(feed_fn)
