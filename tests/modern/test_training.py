"""`modern.training` and `python -m modern`: train/evaluate/predict, resume, and clear errors."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import tensorflow as tf

from modern.cli import main
from modern.training import TrainConfig, train_model


@pytest.fixture(scope="module")
def data_dir(mnist, tmp_path_factory):
    """A small MNIST as .npy files: the CLI memory-maps them."""
    directory = tmp_path_factory.mktemp("mnist")
    for name, array in (("x_train", mnist.x_train[:512]), ("y_train", mnist.y_train[:512]),
                        ("x_test", mnist.x_test[:200]), ("y_test", mnist.y_test[:200])):
        np.save(directory / f"{name}.npy", array)
    return directory


def _config(model_dir, data_dir, steps):
    return TrainConfig(model_dir=str(model_dir), data_dir=str(data_dir), steps=steps, batch_size=32,
                       dropout_rate=0.0, save_steps=100, log_steps=100)


def _weights(model_dir):
    reader = tf.train.load_checkpoint(tf.train.latest_checkpoint(str(model_dir)))
    return {name: reader.get_tensor(name) for name in sorted(reader.get_variable_to_shape_map()) if "/kernel" in name or "/_kernel" in name}


def test_resumed_training_equals_uninterrupted_training(data_dir, tmp_path):
    assert train_model(_config(tmp_path / "once", data_dir, 6)) == {"start_step": 0, "global_step": 6, "interrupted": False}
    train_model(_config(tmp_path / "twice", data_dir, 3))
    assert train_model(_config(tmp_path / "twice", data_dir, 6))["start_step"] == 3
    once, twice = _weights(tmp_path / "once"), _weights(tmp_path / "twice")
    assert once.keys() == twice.keys() and once
    for name in once:
        np.testing.assert_array_equal(once[name], twice[name], err_msg=name)


def test_cli_train_evaluate_predict(data_dir, tmp_path, capsys):
    model_dir = tmp_path / "model"
    common = ["--model-dir", str(model_dir), "--data-dir", str(data_dir), "--batch-size", "50"]
    assert main(["train", *common, "--steps", "5", "--save-checkpoints-steps", "2", "--log-step-count-steps", "2"]) == 0
    assert "steps 0 -> 5 (done)" in capsys.readouterr().out
    assert sorted(int(p.name.split("-")[1].split(".")[0]) for p in model_dir.glob("model.ckpt-*.index")) == [0, 2, 4, 5]
    assert list(model_dir.glob("events.out.tfevents.*"))
    assert main(["evaluate", *common]) == 0
    assert "evaluate: global_step 5, loss " in capsys.readouterr().out
    assert main(["predict", *common, "--show", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 and lines[-1].startswith("predict: 200 images, accuracy ")


def test_evaluate_without_checkpoint_is_a_clear_error(data_dir, tmp_path, capsys):
    assert main(["evaluate", "--model-dir", str(tmp_path), "--data-dir", str(data_dir)]) == 2
    assert "no checkpoint in" in capsys.readouterr().err


def test_resume_from_a_missing_checkpoint_is_a_clear_error(data_dir, tmp_path, capsys):
    (tmp_path / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-40"\n')
    assert main(["train", "--model-dir", str(tmp_path), "--data-dir", str(data_dir), "--steps", "50"]) == 2
    assert "names a checkpoint whose files are missing" in capsys.readouterr().err


def test_killed_training_resumes_without_losing_a_completed_step(data_dir, tmp_path):
    model_dir = tmp_path / "model"
    command = [sys.executable, "-m", "modern", "train", "--model-dir", str(model_dir), "--data-dir", str(data_dir),
               "--steps", "100000", "--batch-size", "32", "--save-checkpoints-steps", "100000", "--dropout-rate", "0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while not (model_dir / "model.ckpt-0.index").exists() and time.time() < deadline and process.poll() is None:
        time.sleep(0.2)
    time.sleep(1.5)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err[-2000:]
    reached = int(out.split("steps 0 -> ")[1].split(" ")[0])
    assert "(interrupted, saved)" in out and reached > 0
    assert tf.train.latest_checkpoint(str(model_dir)).endswith(f"model.ckpt-{reached}")
    result = train_model(TrainConfig(model_dir=str(model_dir), data_dir=str(data_dir), steps=reached + 2, batch_size=32, dropout_rate=0.0))
    assert result == {"start_step": reached, "global_step": reached + 2, "interrupted": False}
