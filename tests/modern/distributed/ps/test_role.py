"""`modern.distributed.ps.role` without a cluster: TF_CONFIG errors and the raw arrays the workers read.

The cluster itself runs in tests/migrate/parity/distributed (TF 2.15) and in
test_loop.py (the current TensorFlow, TF 2.21 included).
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from modern.distributed.ps.role import RoleError, main, role_from_tf_config, write_raw_arrays

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
def test_bad_tf_config_names_what_is_wrong(environ, message):
    with pytest.raises(RoleError, match=message):
        role_from_tf_config(environ)


def test_a_missing_ps_exits_2_naming_the_task(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"chief": CLUSTER["chief"], "worker": CLUSTER["worker"]},
                                                "task": {"type": "worker", "index": 1}}))
    assert main(["--model-dir", str(tmp_path)]) == 2
    assert "modern.distributed.ps (worker 1): error: TF_CONFIG's cluster has no 'ps' role" in capsys.readouterr().err


def test_an_uneven_batch_split_exits_2(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("TF_CONFIG", tf_config(CLUSTER)["TF_CONFIG"])
    code = main(["--model-dir", str(tmp_path), "--data", str(tmp_path / "x.npz"), "--global-batch-size", "63",
                 "--trace", str(tmp_path / "t.json")])
    assert code == 2
    assert "(chief 0): error: --global-batch-size 63 does not split evenly over 2 workers" in capsys.readouterr().err


def test_the_raw_arrays_round_trip(tmp_path):
    x = np.arange(2 * 28 * 28, dtype=np.uint8).reshape(2, 28, 28)
    y = np.array([3, 7], dtype=np.uint8)
    images, labels = write_raw_arrays({"x_train": x, "y_train": y}, tmp_path / "raw")
    assert np.array_equal(np.fromfile(images, np.uint8).reshape(2, 28, 28), x)
    assert np.fromfile(labels, np.int64).tolist() == [3, 7]


def test_a_server_whose_port_is_taken_exits_2_naming_the_task(tmp_path):
    root = Path(__file__).resolve().parents[4]
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        address = f"127.0.0.1:{holder.getsockname()[1]}"
        cluster = {**CLUSTER, "ps": [address]}
        env = {**os.environ, **tf_config(cluster, "ps", 0), "TF_CPP_MIN_LOG_LEVEL": "2",
               "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
        result = subprocess.run([sys.executable, "-m", "modern.distributed.ps", "--model-dir", str(tmp_path)],
                                env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert f"modern.distributed.ps (ps 0): error: could not start the server of ps 0 at {address}" in result.stderr
    assert "is the port already taken?" in result.stderr
