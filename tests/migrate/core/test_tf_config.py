"""`migrate.core.tf_config`: reading TF_CONFIG and the role checks every distributed role process shares."""
from __future__ import annotations

import json

import pytest

from migrate.core.tf_config import TfConfigError, read_tf_config, require_roles, require_task_in_cluster, task_name

CLUSTER = {"ps": ["127.0.0.1:1"], "worker": ["127.0.0.1:2", "127.0.0.1:3"]}


def environ(cluster: dict, task_type: str, index: int) -> dict[str, str]:
    return {"TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": task_type, "index": index}})}


def test_read_tf_config_returns_cluster_and_task():
    assert read_tf_config(environ(CLUSTER, "worker", 1)) == (CLUSTER, "worker", 1)


@pytest.mark.parametrize(("env", "message"), [
    pytest.param({}, "TF_CONFIG is not set", id="unset"),
    pytest.param({"TF_CONFIG": "{not json"}, "is not a cluster spec with a task", id="not JSON"),
    pytest.param({"TF_CONFIG": json.dumps({"cluster": CLUSTER})}, "is not a cluster spec with a task", id="no task"),
])
def test_read_tf_config_says_what_is_wrong(env, message):
    with pytest.raises(TfConfigError, match=message):
        read_tf_config(env)


def test_require_roles_names_every_missing_role_and_why():
    with pytest.raises(TfConfigError) as error:
        require_roles({"worker": ["127.0.0.1:2"]}, ("chief", "ps", "worker"), "the coordinator needs them.")
    assert str(error.value) == ("TF_CONFIG's cluster has no 'chief' and no 'ps' role (it has ['worker']); "
                                "the coordinator needs them.")
    require_roles(CLUSTER, ("ps", "worker"), "unused")


@pytest.mark.parametrize(("task_type", "index"), [("worker", 2), ("evaluator", 0), ("ps", -1)])
def test_require_task_in_cluster_rejects_a_task_outside_the_roles_or_the_spec(task_type, index):
    with pytest.raises(TfConfigError, match=f"task {task_type}:{index} is not in the cluster"):
        require_task_in_cluster(CLUSTER, task_type, index, ("ps", "worker"))


def test_task_name_names_the_task_or_says_it_is_unknown():
    assert task_name(environ(CLUSTER, "worker", 1)) == "worker 1"
    assert task_name({}) == "unknown task"
    assert task_name({"TF_CONFIG": "[]"}) == "unknown task"
