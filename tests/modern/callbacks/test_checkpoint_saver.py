"""`CheckpointSaver`: saves at the start, every N steps and at the end; listeners can stop training."""
from __future__ import annotations

import tensorflow as tf

from modern.callbacks.checkpoint_saver import CheckpointSaver, CheckpointSaverListener
from modern.model import build_model
from modern.training import fit_steps, restore
from tests.modern.conftest import global_step


class Recording(CheckpointSaverListener):
    def __init__(self, stop_at: int | None = None) -> None:
        self.calls: list[tuple[str, int | None]] = []
        self.stop_at = stop_at

    def begin(self):
        self.calls.append(("begin", None))

    def before_save(self, model, step):
        self.calls.append(("before_save", step))

    def after_save(self, model, step):
        self.calls.append(("after_save", step))
        return step == self.stop_at

    def end(self, model, step):
        self.calls.append(("end", step))


def _steps_on_disk(directory) -> list[int]:
    state = tf.train.get_checkpoint_state(str(directory))
    return sorted(int(path.rsplit("-", 1)[1]) for path in state.all_model_checkpoint_paths)


def test_saves_at_zero_every_n_steps_and_at_the_end(model, train_data, tmp_path):
    saver = CheckpointSaver(tmp_path, save_steps=3)
    fit_steps(model, train_data, 7, [saver])
    assert saver.saved_steps == [0, 3, 6, 7]
    assert _steps_on_disk(tmp_path) == [0, 3, 6, 7]
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-7")


def test_end_does_not_save_twice(model, train_data, tmp_path):
    saver = CheckpointSaver(tmp_path, save_steps=3)
    fit_steps(model, train_data, 6, [saver])
    assert saver.saved_steps == [0, 3, 6]


def test_listener_after_save_true_stops_training(model, train_data, tmp_path):
    listener = Recording(stop_at=4)
    fit_steps(model, train_data, 20, [CheckpointSaver(tmp_path, save_steps=2, listeners=[listener])])
    assert global_step(model) == 4
    assert listener.calls == [
        ("begin", None), ("before_save", 0), ("after_save", 0), ("before_save", 2), ("after_save", 2),
        ("before_save", 4), ("after_save", 4), ("end", 4),
    ]


def test_checkpoint_restores_model_and_optimizer(model, train_data, tmp_path):
    fit_steps(model, train_data, 5, [CheckpointSaver(tmp_path, save_steps=100)])
    restored = build_model({"dropout_rate": 0.0}, seed=9)
    assert restore(restored, tf.train.latest_checkpoint(str(tmp_path))) == 5
    for a, b in zip(model.get_layer("fc1").weights, restored.get_layer("fc1").weights):
        tf.debugging.assert_equal(a, b)
