"""`modern.distributed.sidecar` without a cluster: TF_CONFIG errors and an evaluator that gets no checkpoint.

It evaluates a real cluster's checkpoints in tests/migrate/parity/distributed.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from modern.distributed.sidecar import SidecarError, check_tf_config, main

WORKERS = ["127.0.0.1:1", "127.0.0.1:2"]


def tf_config(cluster, task_type="evaluator", index=0) -> dict[str, str]:
    return {"TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": task_type, "index": index}})}


def test_the_evaluator_of_a_worker_cluster_is_accepted():
    check_tf_config(tf_config({"worker": WORKERS}))


@pytest.mark.parametrize("environ, message", [
    pytest.param({}, "TF_CONFIG is not set", id="no TF_CONFIG"),
    pytest.param(tf_config({"ps": WORKERS}), "no 'worker' or 'chief' role", id="nobody writes checkpoints"),
    pytest.param(tf_config({"worker": WORKERS}, "worker", 1), "task is worker:1", id="not the evaluator"),
])
def test_bad_tf_config_names_what_is_wrong(environ, message):
    with pytest.raises(SidecarError, match=message):
        check_tf_config(environ)


def test_no_checkpoint_within_the_timeout_exits_2_with_what_to_check(monkeypatch, capsys, tmp_path, mnist):
    data = tmp_path / "data.npz"
    np.savez(data, x_test=mnist.x_test[:8], y_test=mnist.y_test[:8])
    (tmp_path / "model").mkdir()
    monkeypatch.setenv("TF_CONFIG", tf_config({"worker": WORKERS})["TF_CONFIG"])
    code = main(["--model-dir", str(tmp_path / "model"), "--data", str(data), "--steps", "4",
                 "--trace", str(tmp_path / "t.json"), "--eval-timeout", "0.5", "--poll-secs", "0.1"])
    assert code == 2
    error = capsys.readouterr().err
    assert "modern.distributed.sidecar (evaluator 0): error: no new checkpoint arrived in" in error
    assert "within 0.5 s (none arrived; training ends at step 4)" in error and not (tmp_path / "t.json").exists()
