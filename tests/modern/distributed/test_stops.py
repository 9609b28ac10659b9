"""A stop requested on one worker only stops both workers of a real 2-worker `MultiWorkerMirroredStrategy` cluster.

Each stopping callback of `modern/callbacks/` (and `StopTogether` for a
user's own ``model.stop_training = True``) fires on worker 1 only, `AFTER`
steps into a fit (`stopping_worker.py`): both workers must stop after that
same step, `NanTensor` must raise on both, and nothing may hang (the cluster
has a timeout). Runs on the Keras of the suite: 2.15, and Keras 3 on TF 2.21.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from migrate.parity.distributed.cluster import Cluster, Role, cluster_spec, free_ports
from tests.modern.distributed import stopping_worker

REPO_ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def stops(tmp_path_factory) -> dict[int, dict]:
    workdir = tmp_path_factory.mktemp("stops")
    spec = cluster_spec({"worker": 2}, free_ports(2))
    roles = [Role("worker", index, (stopping_worker.__file__, str(workdir / f"worker{index}.json"))) for index in range(2)]
    env = {"PYTHONPATH": str(REPO_ROOT), "TF_CPP_MIN_LOG_LEVEL": "2"}
    with Cluster("modern", sys.executable, spec, roles, workdir / "logs", timeout=180, env=env) as cluster:
        cluster.start()
        cluster.wait()
    return {index: json.loads((workdir / f"worker{index}.json").read_text())["results"] for index in range(2)}


@pytest.mark.parametrize("name", ["StopAtStep", "StopOnCondition", "NanTensor(fail_on_nan_loss=False)",
                                  "user stop + StopTogether"])
def test_a_stop_on_one_worker_stops_both_after_the_same_step(stops, name):
    assert stops[0][name] == stops[1][name] == {"steps": stopping_worker.AFTER, "raised": False}


def test_nan_on_one_worker_raises_on_both(stops):
    assert stops[0]["NanTensor"] == stops[1]["NanTensor"] == {"steps": stopping_worker.AFTER, "raised": True}


def test_early_stopping_on_one_worker_stops_both_at_the_same_epoch(stops):
    # epochs of one step; worker 1's val_loss never improves: patience AFTER - 1 steps ends the fit at step AFTER
    assert stops[0]["EarlyStopping"] == stops[1]["EarlyStopping"] == {"steps": stopping_worker.AFTER, "raised": False}
