"""The raw MonitoredTrainingSession loop: same model, same checkpoints, same protocol as the Estimator."""
from __future__ import annotations

import os

import numpy as np
import tensorflow as tf

from legacy.estimator import checkpoint_steps, evaluate, train
from legacy.hooks.event_recorder import EventRecorderHook
from legacy.model import VARIABLE_SHAPES, initial_weights
from legacy.monitored import train_monitored
from migrate.core.protocol import expected_events, without_losses


def test_trains_resumes_and_leaves_checkpoints_the_estimator_can_evaluate(tmp_path, make_estimator, train_arrays, test_arrays):
    checkpoint_dir = tmp_path / "model"
    assert train_monitored(train_arrays, checkpoint_dir=checkpoint_dir, steps=4, batch_size=32, save_checkpoint_steps=2) == 4
    recorder = EventRecorderHook("train")
    assert train_monitored(train_arrays, checkpoint_dir=checkpoint_dir, steps=3, batch_size=32, hooks=[recorder]) == 7

    assert without_losses(recorder.events) == expected_events("train", 3, start_step=4)
    assert checkpoint_steps(checkpoint_dir)[-1] == 7
    metrics = evaluate(make_estimator("model"), test_arrays, batch_size=100)
    assert metrics["global_step"] == 7


def test_starts_from_the_same_seeded_weights_as_the_estimator(tmp_path, train_arrays):
    train_monitored(train_arrays, checkpoint_dir=tmp_path, steps=1, batch_size=32, seed=9)
    expected = initial_weights(seed=9)

    for name in VARIABLE_SHAPES:
        np.testing.assert_array_equal(tf.train.load_variable(os.path.join(tmp_path, "model.ckpt-0"), name), expected[name])


def test_the_same_run_as_the_estimator_gives_the_same_losses(tmp_path, make_estimator, train_arrays):
    params = {"optimizer": "sgd", "learning_rate": 0.05, "dropout_rate": 0.0}
    by_estimator = EventRecorderHook("train")
    train(make_estimator(params=params), train_arrays, steps=5, batch_size=32, hooks=[by_estimator], shuffle=False)
    by_loop = EventRecorderHook("train")
    train_monitored(
        train_arrays, checkpoint_dir=None, steps=5, batch_size=32, params=params, hooks=[by_loop], shuffle=False
    )

    assert by_loop.events == by_estimator.events


def test_exhausted_input_ends_the_loop(train_arrays):
    x, y = train_arrays
    recorder = EventRecorderHook("train")
    last = train_monitored((x[:64], y[:64]), checkpoint_dir=None, batch_size=32, num_epochs=1, hooks=[recorder], shuffle=False)

    assert last == 2
    assert without_losses(recorder.events) == expected_events("train", 2, input_exhausted=True)
