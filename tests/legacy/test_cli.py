"""`python -m legacy`: train, resume, evaluate, and clear exit-2 errors for bad input."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import tensorflow as tf

from legacy.cli import main
from legacy.estimator import checkpoint_steps, latest_step

ROOT = Path(__file__).resolve().parents[2]

SMALL = ["--train-examples", "500", "--test-examples", "200", "--batch-size", "32", "--eval-batch-size", "200"]


def evaluation_line(output: str) -> dict[str, float]:
    match = re.search(r"loss=([\d.]+) accuracy=([\d.]+) global_step=(\d+)", output)
    assert match, output
    return {"loss": float(match.group(1)), "accuracy": float(match.group(2)), "global_step": int(match.group(3))}


def test_train_writes_checkpoints_and_events_then_resumes_to_the_total_steps(tmp_path, capsys):
    model_dir = tmp_path / "model"
    assert main(["train", "--model-dir", str(model_dir), "--steps", "6", *SMALL]) == 0
    first = capsys.readouterr().out
    assert "training from scratch" in first
    assert evaluation_line(first)["global_step"] == 6
    assert list(model_dir.glob("events.out.tfevents.*")) and list(model_dir.glob("model.ckpt-6.index"))

    assert main(["train", "--model-dir", str(model_dir), "--steps", "10", "--optimizer", "sgd", *SMALL]) == 0
    second = capsys.readouterr().out
    assert "resuming from the checkpoint at global step 6" in second
    assert evaluation_line(second)["global_step"] == 10

    assert main(["evaluate", "--model-dir", str(model_dir), "--test-examples", "200"]) == 0
    assert evaluation_line(capsys.readouterr().out)["global_step"] == 10


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["train", "--steps", "0"], "--steps: must be a positive integer", id="zero steps"),
        pytest.param(["train", "--optimizer", "rmsprop"], "invalid choice: 'rmsprop'", id="unknown optimizer"),
        pytest.param(["train", "--learning-rate", "-1"], "--learning-rate: must be a positive number", id="negative rate"),
        pytest.param(["train", "--dropout-rate", "1.5"], r"--dropout-rate: must be in \[0, 1\)", id="dropout over 1"),
        pytest.param(["train", "--data-dir", "{tmp}/absent"], "does not exist or is not a directory", id="missing data dir"),
        pytest.param(["train", "--data-dir", "{tmp}/empty"], "missing IDX file", id="empty data dir"),
        pytest.param(["train", "--data-dir", "{tmp}/corrupt"], r"mnist\.npz: cannot be read as \.npz", id="corrupt npz"),
        pytest.param(["train", "--data-dir", "{tmp}/narrow"], r"train images have shape \(60000, 28, 27\)", id="wrong shape"),
        pytest.param(["evaluate"], "holds no checkpoint; run `python -m legacy train` first", id="nothing to evaluate"),
    ],
)
def test_bad_input_exits_2_with_a_message_and_no_traceback(tmp_path, capsys, argv, message):
    (tmp_path / "empty").mkdir()
    (tmp_path / "corrupt").mkdir()
    (tmp_path / "corrupt" / "mnist.npz").write_bytes(b"PK\x03\x04 truncated")
    (tmp_path / "narrow").mkdir()
    np.savez(
        tmp_path / "narrow" / "mnist.npz",
        x_train=np.zeros((60000, 28, 27), np.uint8), y_train=np.zeros(60000, np.uint8),
        x_test=np.zeros((10000, 28, 28), np.uint8), y_test=np.zeros(10000, np.uint8),
    )
    argv = [part.format(tmp=tmp_path) for part in argv]

    assert main([*argv, "--model-dir", str(tmp_path / "model")]) == 2
    error = capsys.readouterr().err
    assert re.search(message, error), error
    assert "Traceback" not in error


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "train" in capsys.readouterr().err


def test_killed_training_resumes_from_its_last_checkpoint_and_loses_none(tmp_path):
    """SIGKILL mid-training (no `end`, no final save), then run the same command again."""
    model_dir = tmp_path / "model"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TF_ENABLE_ONEDNN_OPTS": "0", "TF_CPP_MIN_LOG_LEVEL": "3"}

    def command(steps: int) -> list[str]:
        return [
            sys.executable, "-m", "legacy", "train", "--model-dir", str(model_dir), "--steps", str(steps),
            "--save-checkpoints-steps", "10", "--keep-checkpoints", "0", *SMALL,
        ]

    victim = subprocess.Popen(command(100_000), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while len(checkpoint_steps(model_dir)) < 3:  # steps 0, 10, 20 are complete
            assert victim.poll() is None, victim.stderr.read().decode()
            assert time.monotonic() < deadline, "no checkpoints within 120 s"
            time.sleep(0.1)
    finally:
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        victim.stderr.close()
    completed = checkpoint_steps(model_dir)
    resumable = latest_step(model_dir)
    assert victim.returncode == -signal.SIGKILL
    assert resumable in completed[-2:]  # the state file may lag the newest index file by one save

    rerun = subprocess.run(command(resumable + 15), cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)

    assert rerun.returncode == 0, rerun.stderr
    assert f"resuming from the checkpoint at global step {resumable}" in rerun.stdout
    assert evaluation_line(rerun.stdout)["global_step"] == resumable + 15
    assert set(completed) <= set(checkpoint_steps(model_dir))
    for step in completed:
        assert tf.train.load_variable(str(model_dir / f"model.ckpt-{step}"), "global_step") == step
