"""`legacy.distributed.role` without a cluster: TF_CONFIG errors and the batch split (the cluster runs in tests/migrate/parity/distributed)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from legacy.distributed.role import RoleError, batch_indices, main, random_batch_indices, role_from_tf_config

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
def test_bad_tf_config_names_what_is_wrong(environ, message):
    with pytest.raises(RoleError, match=message):
        role_from_tf_config(environ)


def test_a_missing_role_exits_2_naming_the_task(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": CLUSTER["worker"]}, "task": {"type": "worker", "index": 1}}))
    assert main(["--model-dir", str(tmp_path)]) == 2
    assert "legacy.distributed (worker 1): error: TF_CONFIG's cluster has no 'ps' role" in capsys.readouterr().err


def test_workers_split_each_global_batch_in_order_and_wrap_around_the_data():
    first = batch_indices(0, 8, 0, 2, 20)
    second = batch_indices(0, 8, 1, 2, 20)
    assert np.concatenate([first, second]).tolist() == list(range(8))
    assert batch_indices(2, 8, 1, 2, 20).tolist() == [0, 1, 2, 3]


def test_asynchronous_workers_draw_their_own_batches_of_their_share_without_repeats():
    rng = np.random.default_rng([0, 1, 0])
    batches = [random_batch_indices(rng, 8, 2, 20) for _ in range(3)]
    assert all(len(batch) == 4 and len(set(batch.tolist())) == 4 and batch.max() < 20 for batch in batches)
    assert len({tuple(batch.tolist()) for batch in batches}) > 1


def test_an_unknown_replication_is_a_usage_error(capsys, tmp_path):
    assert main(["--model-dir", str(tmp_path), "--replication", "semi"]) == 2
    assert "invalid choice: 'semi'" in capsys.readouterr().err
