"""`FeedFnHook`: per-step feeds give the same training as the placeholder Dataset pipeline."""
from __future__ import annotations

import pytest

from legacy.estimator import train, write_initial_checkpoint
from legacy.hooks.event_recorder import EventRecorderHook
from legacy.hooks.feed_fn import FEED_IMAGES, feed_input_fn, make_feed_fn_hook

SGD_NO_DROPOUT = {"optimizer": "sgd", "learning_rate": 0.05, "dropout_rate": 0.0}


def test_feeding_batches_step_by_step_matches_the_dataset_pipeline(make_estimator, train_arrays):
    x, y = train_arrays[0][:80], train_arrays[1][:80]  # batch 32 over 80 examples: batch 3 crosses the epoch
    by_dataset = EventRecorderHook("train")
    dataset_estimator = make_estimator("dataset", params=SGD_NO_DROPOUT)
    write_initial_checkpoint(dataset_estimator)
    train(dataset_estimator, (x, y), steps=4, batch_size=32, hooks=[by_dataset], shuffle=False)

    by_feed = EventRecorderHook("train")
    feed_estimator = make_estimator("feed", params=SGD_NO_DROPOUT)
    write_initial_checkpoint(feed_estimator)
    input_fn, feed_hook = feed_input_fn(x, y, batch_size=32)
    feed_estimator.train(input_fn, steps=4, hooks=[feed_hook, by_feed])

    assert by_feed.events == by_dataset.events


def test_two_hooks_feeding_the_same_tensor_is_an_error(make_estimator, train_arrays):
    input_fn, feed_hook = feed_input_fn(*train_arrays, batch_size=32)
    second = make_feed_fn_hook(lambda: {FEED_IMAGES: train_arrays[0][:32]})
    with pytest.raises(RuntimeError, match="Same tensor is fed by two hooks"):
        make_estimator().train(input_fn, steps=1, hooks=[feed_hook, second])
