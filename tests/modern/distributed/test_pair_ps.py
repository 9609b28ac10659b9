"""`modern.distributed.pair_ps` without a cluster: TF_CONFIG errors and the saved batches the workers read.

The cluster itself runs in tests/migrate/parity/distributed (TF 2.15) and in
ps/test_loop.py (the current TensorFlow, TF 2.21 included).
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.core.cli import UsageError
from migrate.parity.pair import Pair
from modern.distributed.pair_ps import main, role_from_tf_config, worker_dataset_fn
from tests.distributed_runs import mnist_run

CLUSTER = {"chief": ["127.0.0.1:1"], "ps": ["127.0.0.1:2"], "worker": ["127.0.0.1:3", "127.0.0.1:4"]}


def tf_config(cluster, task_type="chief", index=0) -> dict[str, str]:
    return {"TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": task_type, "index": index}})}


@pytest.mark.parametrize("task_type, index", [("chief", 0), ("ps", 0), ("worker", 1)])
def test_the_role_comes_from_tf_config(task_type, index):
    assert role_from_tf_config(tf_config(CLUSTER, task_type, index)) == (task_type, index, CLUSTER)


@pytest.mark.parametrize("environ, message", [
    pytest.param({}, "TF_CONFIG is not set", id="no TF_CONFIG"),
    pytest.param(tf_config({"chief": CLUSTER["chief"], "worker": CLUSTER["worker"]}), "no 'ps' role", id="missing ps"),
    pytest.param(tf_config({"ps": CLUSTER["ps"], "worker": CLUSTER["worker"]}, "ps"), "no 'chief' role",
                 id="missing coordinator"),
    pytest.param(tf_config(CLUSTER, "worker", 2), "task worker:2 is not in the cluster", id="index out of range"),
    pytest.param(tf_config(CLUSTER, "evaluator", 0), "task evaluator:0 is not in the cluster", id="unknown role"),
])
def test_bad_tf_config_is_a_usage_error_naming_what_is_wrong(environ, message):
    with pytest.raises(UsageError, match=message):
        role_from_tf_config(environ)


def test_a_missing_ps_exits_2_naming_the_task(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"chief": CLUSTER["chief"], "worker": CLUSTER["worker"]},
                                                "task": {"type": "worker", "index": 1}}))
    assert main(["--model-dir", str(tmp_path)]) == 2
    assert "modern.distributed.pair_ps (worker 1): error: TF_CONFIG's cluster has no 'ps' role" in capsys.readouterr().err


def test_an_uneven_batch_split_exits_2(monkeypatch, capsys, tmp_path):
    run = mnist_run(2, batch_size=63).write(tmp_path / "run.json")
    monkeypatch.setenv("TF_CONFIG", tf_config(CLUSTER)["TF_CONFIG"])
    code = main(["--model-dir", str(tmp_path), "--run", str(run), "--trace", str(tmp_path / "t.json")])
    assert code == 2
    assert "(chief 0): error: the global batch 63 does not split evenly over 2 workers" in capsys.readouterr().err


def test_the_workers_read_the_first_global_batches_the_coordinator_saved_in_batches_of_their_share(tmp_path):
    import tensorflow as tf

    def numbered(params):  # Python in the dataset, as the MNIST pair's: it runs only where it was made
        batches = tf.data.Dataset.from_generator(lambda: iter(range(1000)), output_signature=tf.TensorSpec([], tf.int64))
        return batches.map(lambda x: (tf.fill([2], x), x)).batch(4)

    pair = Pair("numbered", "numbered.py", {"train_dataset": numbered})
    dataset_fn = worker_dataset_fn(pair, {}, batches=3, local_batch=2, directory=tmp_path / "saved")
    batches = [[int(value) for value in labels] for _, labels in dataset_fn().take(12)]
    assert all(len(batch) == 2 for batch in batches)
    # an epoch is the 12 examples of the 3 saved batches, shuffled; then again
    assert sorted(sum(batches[:6], [])) == sorted(sum(batches[6:], [])) == list(range(12))


def test_a_server_whose_port_is_taken_exits_2_naming_the_task(tmp_path):
    root = Path(__file__).resolve().parents[3]
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        address = f"127.0.0.1:{holder.getsockname()[1]}"
        cluster = {**CLUSTER, "ps": [address]}
        env = {**os.environ, **tf_config(cluster, "ps", 0), "TF_CPP_MIN_LOG_LEVEL": "2",
               "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
        result = subprocess.run([sys.executable, "-m", "modern.distributed.pair_ps", "--model-dir", str(tmp_path)],
                                env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert f"modern.distributed.pair_ps (ps 0): error: could not start the server of ps 0 at {address}" in result.stderr
    assert "is the port already taken?" in result.stderr
