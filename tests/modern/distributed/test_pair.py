"""`modern.distributed.pair` on the current Keras: TF_CONFIG errors, and a 2-worker cluster writing one set of files.

On TF 2.15 the shared faulted run (tests/migrate/parity/distributed) covers
the cluster; here the cluster runs on Keras 3 only, where Keras reduces logs
and builds models differently under a strategy.
"""
from __future__ import annotations

import json

import keras
import pytest
import tensorflow as tf

from migrate.core.cli import UsageError
from migrate.parity.distributed.cluster import Fault
from migrate.parity.distributed.run import DistributedConfig, run_distributed
from modern.distributed.pair import main, role_from_tf_config
from tests.distributed_runs import mnist_run

WORKERS = ["127.0.0.1:1", "127.0.0.1:2"]


@pytest.mark.parametrize("environ, message", [
    pytest.param({}, "TF_CONFIG is not set", id="no TF_CONFIG"),
    pytest.param({"TF_CONFIG": json.dumps({"cluster": {"ps": WORKERS}, "task": {"type": "ps", "index": 0}})},
                 "has no 'worker' role", id="missing workers"),
    pytest.param({"TF_CONFIG": json.dumps({"cluster": {"worker": WORKERS}, "task": {"type": "worker", "index": 5}})},
                 "task worker:5 is not in the cluster", id="index out of range"),
])
def test_bad_tf_config_is_a_usage_error_naming_what_is_wrong(environ, message):
    with pytest.raises(UsageError, match=message):
        role_from_tf_config(environ)


def test_an_uneven_batch_split_exits_2(monkeypatch, capsys, tmp_path):
    run = mnist_run(2, batch_size=63).write(tmp_path / "run.json")
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": WORKERS}, "task": {"type": "worker", "index": 0}}))
    code = main(["--model-dir", str(tmp_path), "--run", str(run), "--steps", "2", "--trace", str(tmp_path / "t.json")])
    assert code == 2
    assert "(worker 0): error: the global batch 63 does not split evenly over 2 workers" in capsys.readouterr().err


@pytest.mark.skipif(int(keras.__version__.split(".")[0]) < 3, reason="Keras 2.15 runs in the shared faulted run")
def test_two_workers_on_keras3_resume_from_the_backup_and_write_one_set_of_files(mnist, tmp_path):
    """Worker 1 SIGKILLed at step 4: Keras 3's BackupAndRestore (epochs of 3 steps) resumes both workers at step 3."""
    config = DistributedConfig(mnist_run(6, train_examples=256, eval_examples=64), workers=2, save_steps=3,
                               log_steps=3, sides=("modern",), timeout=240, kill=Fault("worker", 1, 4))
    result, sides = run_distributed(config, tmp_path / "run", progress=lambda _: None)
    modern = sides["modern"]
    assert result.ok, result.failures()  # the replayed steps have the same losses, one writer, no temp dir left
    killed = modern.attempts[0]
    assert killed.status == "killed" and killed.resumes_from_checkpoint == 3
    assert modern.replay["replayed_steps"] >= 1 and sorted(modern.losses) == list(range(1, 7))
    chief, worker = modern.traces[0], modern.traces[1]
    assert (chief.role.start_step, worker.role.start_step) == (3, 3)
    assert chief.role.restored_by == worker.role.restored_by == "BackupAndRestore"
    assert chief.losses == worker.losses  # the all-reduced loss, the same on every worker
    assert chief.versions["keras"].startswith("3.")
    files = modern.files
    assert files.checkpoint_steps == [0, 3, 6]
    assert files.event_writers == ["chief"] and files.worker_temp_dirs_left == []
    model_dir = tmp_path / "run" / "modern" / "model"
    assert not (model_dir / "backup").exists()  # Keras 3 deletes its backup dir
    for index in sorted(model_dir.glob("model.ckpt-*.index")):  # every checkpoint kept loads, tensor by tensor
        reader = tf.train.load_checkpoint(str(index)[: -len(".index")])
        assert [reader.get_tensor(name) for name in reader.get_variable_to_shape_map()]
    assert worker.actions == [] and {a.by for a in chief.actions} >= {"CheckpointSaver", "SummarySaver"}
