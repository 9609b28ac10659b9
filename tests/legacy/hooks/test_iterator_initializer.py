"""`IteratorInitializerHook`: the feed happens in after_create_session, again for every new session."""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from legacy.estimator import train
from legacy.hooks.event_recorder import EventRecorderHook
from legacy.hooks.iterator_initializer import IteratorInitializerHook
from legacy.inputs import train_input


def test_without_the_hook_the_estimator_cannot_read_the_placeholder_input(make_estimator, train_arrays):
    input_fn, _ = train_input(*train_arrays, batch_size=32)
    with pytest.raises(tf.errors.FailedPreconditionError):
        make_estimator().train(input_fn, steps=1)


def test_every_new_session_restarts_the_iterator(train_arrays):
    x, y = train_arrays
    input_fn, hook = train_input(x[:10], y[:10], batch_size=4, shuffle=False)
    with tf.Graph().as_default():
        _, labels = input_fn()
        for _ in range(2):
            with tf.compat.v1.Session() as session:
                hook.after_create_session(session, coord=None)
                np.testing.assert_array_equal(session.run(labels), y[:4])


def test_the_hook_runs_first_so_the_first_step_already_has_data(make_estimator, train_arrays):
    recorder = EventRecorderHook("train")
    train(make_estimator(), train_arrays, steps=1, batch_size=32, hooks=[recorder])

    assert [event["event"] for event in recorder.events][-2:] == ["after_run", "end"]


def test_an_unbound_hook_names_the_fix():
    with pytest.raises(RuntimeError, match="legacy.inputs.placeholder_input_fn returns both"):
        IteratorInitializerHook().after_create_session(None, None)
