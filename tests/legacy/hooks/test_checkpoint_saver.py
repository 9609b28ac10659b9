"""`CheckpointSaverHook` and its listeners: saves at the start, every N steps, at the end; stop on save."""
from __future__ import annotations

from legacy.estimator import checkpoint_steps, train
from legacy.hooks.checkpoint_saver import CheckpointLogListener, make_checkpoint_saver_hook


def test_the_estimators_saver_calls_listeners_at_start_every_n_and_end(make_estimator, train_arrays):
    listener = CheckpointLogListener()
    estimator = make_estimator(save_checkpoints_steps=4, keep_checkpoint_max=None)
    train(estimator, train_arrays, steps=10, batch_size=32, saving_listeners=[listener])

    assert listener.saved_steps == [0, 4, 8, 10]
    assert listener.calls[0] == ("begin", None) and listener.calls[-1] == ("end", 10)
    assert checkpoint_steps(estimator.model_dir) == [0, 4, 8, 10]


def test_after_save_returning_true_stops_training(make_estimator, train_arrays):
    listener = CheckpointLogListener(stop_at_step=4)
    estimator = make_estimator(save_checkpoints_steps=2)
    train(estimator, train_arrays, steps=50, batch_size=32, saving_listeners=[listener])

    assert listener.saved_steps == [0, 2, 4]
    assert checkpoint_steps(estimator.model_dir)[-1] == 4


def test_a_hook_of_your_own_replaces_the_estimators(make_estimator, train_arrays, tmp_path):
    estimator = make_estimator(save_checkpoints_steps=100)
    hook = make_checkpoint_saver_hook(str(tmp_path / "own"), save_steps=3)
    train(estimator, train_arrays, steps=7, batch_size=32, hooks=[hook])

    assert checkpoint_steps(tmp_path / "own") == [0, 3, 6, 7]
    assert checkpoint_steps(estimator.model_dir) == []
