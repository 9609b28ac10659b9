"""`legacy.distributed.pair` without a cluster: TF_CONFIG errors and the batch split (the cluster runs in tests/migrate/parity/distributed)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from legacy.distributed.pair import main, role_from_tf_config, worker_slice
from migrate.core.cli import UsageError
from tests.distributed_runs import mnist_run

CLUSTER = {"ps": ["127.0.0.1:1"], "worker": ["127.0.0.1:2", "127.0.0.1:3"]}


def tf_config(cluster, task_type="worker", index=0) -> dict[str, str]:
    return {"TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": task_type, "index": index}})}


def test_the_role_comes_from_tf_config():
    assert role_from_tf_config(tf_config(CLUSTER, "worker", 1)) == ("worker", 1, CLUSTER)


@pytest.mark.parametrize("environ, message", [
    pytest.param({}, "TF_CONFIG is not set", id="no TF_CONFIG"),
    pytest.param({"TF_CONFIG": "{not json"}, "is not a cluster spec", id="not JSON"),
    pytest.param(tf_config({"worker": CLUSTER["worker"]}), "no 'ps' role", id="missing ps"),
    pytest.param(tf_config({"ps": CLUSTER["ps"]}, "ps"), "no 'worker' role", id="missing workers"),
    pytest.param(tf_config(CLUSTER, "worker", 2), "task worker:2 is not in the cluster", id="index out of range"),
    pytest.param(tf_config(CLUSTER, "evaluator", 0), "task evaluator:0 is not in the cluster", id="unknown role"),
])
def test_bad_tf_config_is_a_usage_error_naming_what_is_wrong(environ, message):
    with pytest.raises(UsageError, match=message):
        role_from_tf_config(environ)


def test_a_missing_role_exits_2_naming_the_task(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": CLUSTER["worker"]}, "task": {"type": "worker", "index": 1}}))
    assert main(["--model-dir", str(tmp_path)]) == 2
    assert "legacy.distributed.pair (worker 1): error: TF_CONFIG's cluster has no 'ps' role" in capsys.readouterr().err


def test_a_global_batch_that_does_not_split_over_the_workers_exits_2(monkeypatch, capsys, tmp_path):
    run = mnist_run(4, batch_size=63).write(tmp_path / "run.json")
    monkeypatch.setenv("TF_CONFIG", tf_config(CLUSTER, "worker", 1)["TF_CONFIG"])
    assert main(["--model-dir", str(tmp_path), "--run", str(run), "--trace", str(tmp_path / "t.json")]) == 2
    assert "(worker 1): error: the global batch 63 does not split evenly over 2 workers" in capsys.readouterr().err


def test_workers_split_each_global_batch_in_order():
    features, labels = np.arange(16).reshape(8, 2), np.arange(8)
    first, second = (worker_slice((features, labels), worker, 2) for worker in (0, 1))
    assert np.concatenate([first[1], second[1]]).tolist() == list(range(8))
    assert np.asarray(second[0]).tolist() == [[8, 9], [10, 11], [12, 13], [14, 15]]


def test_an_unknown_replication_is_a_usage_error(capsys, tmp_path):
    assert main(["--model-dir", str(tmp_path), "--replication", "semi"]) == 2
    assert "invalid choice: 'semi'" in capsys.readouterr().err
