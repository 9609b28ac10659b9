"""`legacy.distributed.estimator` without a cluster: TF_CONFIG errors, an evaluator that gets no checkpoint.

The 4-task cluster (chief, worker, ps, evaluator) runs in tests/migrate/parity/distributed.
"""
from __future__ import annotations

import json

import pytest

from legacy.distributed.estimator import main, role_from_tf_config
from migrate.core.cli import UsageError
from tests.distributed_runs import mnist_run

CLUSTER = {"chief": ["127.0.0.1:1"], "worker": ["127.0.0.1:2"], "ps": ["127.0.0.1:3"]}


def tf_config(cluster, task_type="chief", index=0) -> dict[str, str]:
    return {"TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": task_type, "index": index}})}


@pytest.mark.parametrize("task", [("chief", 0), ("worker", 0), ("ps", 0), ("evaluator", 0)])
def test_every_role_comes_from_tf_config_and_the_evaluator_is_outside_the_cluster(task):
    assert role_from_tf_config(tf_config({**CLUSTER, "evaluator": ["127.0.0.1:4"]}, *task)) == (*task, CLUSTER)


@pytest.mark.parametrize("environ, message", [
    pytest.param({}, "TF_CONFIG is not set", id="no TF_CONFIG"),
    pytest.param(tf_config({"worker": CLUSTER["worker"], "ps": CLUSTER["ps"]}, "worker"), "has no 'chief' role",
                 id="missing chief"),
    pytest.param(tf_config({"chief": CLUSTER["chief"]}), "has no 'ps' role", id="missing ps"),
    pytest.param(tf_config({**CLUSTER, "chief": ["127.0.0.1:1", "127.0.0.1:5"]}), "2 chiefs", id="two chiefs"),
    pytest.param(tf_config(CLUSTER, "worker", 1), "task worker:1 is not in the cluster", id="index out of range"),
    pytest.param(tf_config(CLUSTER, "evaluator", 1), "there is one evaluator", id="second evaluator"),
    pytest.param(tf_config(CLUSTER, "master", 0), "'master' is not one of", id="unknown role"),
])
def test_bad_tf_config_is_a_usage_error_naming_what_is_wrong(environ, message):
    with pytest.raises(UsageError, match=message):
        role_from_tf_config(environ)


def test_a_missing_role_exits_2_naming_the_task(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"chief": CLUSTER["chief"]}, "task": {"type": "chief", "index": 0}}))
    assert main(["--model-dir", str(tmp_path)]) == 2
    assert "legacy.distributed.estimator (chief 0): error: TF_CONFIG's cluster has no 'ps' role" in capsys.readouterr().err


@pytest.mark.estimator
def test_an_evaluator_that_never_gets_a_checkpoint_is_a_failed_cluster_exit_1(monkeypatch, capsys, tmp_path, mnist):
    run = mnist_run(4, train_examples=64, eval_examples=64).write(tmp_path / "run.json")
    monkeypatch.setenv("TF_CONFIG", tf_config(CLUSTER, "evaluator", 0)["TF_CONFIG"])
    code = main(["--model-dir", str(tmp_path / "model"), "--run", str(run), "--trace", str(tmp_path / "t.json"),
                 "--eval-timeout", "0.5"])
    assert code == 1
    error = capsys.readouterr().err
    assert "legacy.distributed.estimator (evaluator 0): no checkpoint arrived in" in error and "within 0.5 s;" in error
    assert "Is the chief running" in error and not (tmp_path / "t.json").exists()


def test_an_evaluator_of_a_pair_without_eval_input_is_a_usage_error(monkeypatch, capsys, tmp_path):
    from migrate.parity.distributed.pair_run import PairRun

    pair = tmp_path / "no_eval.py"  # the four functions a pair needs, and no eval input
    pair.write_text("".join(f"def {name}(*args):\n    raise AssertionError\n\n\n"
                            for name in ("model_fn", "train_input_fn", "build_model", "train_dataset")))
    run = PairRun(str(pair), "no_eval", {}, {}, 0, 64, 4).write(tmp_path / "run.json")
    monkeypatch.setenv("TF_CONFIG", tf_config(CLUSTER, "evaluator", 0)["TF_CONFIG"])
    assert main(["--model-dir", str(tmp_path / "model"), "--run", str(run), "--trace", str(tmp_path / "t.json"),
                 "--eval-timeout", "0.5"]) == 2
    assert "defines no eval_input_fn and eval_dataset, which the evaluator tasks of --evaluator" in capsys.readouterr().err
