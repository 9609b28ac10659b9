"""`migrate parity --workers N` usage errors: exit 2 with a message, before any process starts."""
from __future__ import annotations

import pytest

from migrate.cli import main


@pytest.mark.parametrize("argv, message", [
    pytest.param(["--side", "legacy"], "cannot be combined with --workers: --side (a distributed run trains both "
                 "clusters in one go", id="single-process flag"),
    pytest.param(["--mode", "statistical"], "--mode (the synchronous clusters are compared step by step; "
                 "--replication async gives the statistical verdict)", id="statistical mode"),
    pytest.param(["--no-serving"], "--no-serving (a distributed run exports no SavedModels)", id="serving flag"),
    pytest.param(["--pair", "my_pair.py"], "no pair file at my_pair.py", id="a pair file that does not exist"),
    pytest.param(["--batch-size", "63"], "--batch-size 63 (the global batch) must split evenly over 2 workers",
                 id="uneven batch"),
    pytest.param(["--kill", "worker:2@5"], "only worker:0 … worker:1 exist", id="kill a worker that does not exist"),
    pytest.param(["--kill", "worker:1@900", "--steps", "100"], "must be before the last step 100", id="kill too late"),
    pytest.param(["--kill", "soon"], "--kill expects TASK:INDEX@STEP", id="malformed kill"),
    pytest.param(["--modern-python", "/nonexistent/python"], "is not an executable interpreter", id="bad interpreter"),
    pytest.param(["--replication", "async", "--kill", "worker:0@5"], "worker 0 is the TF1 chief",
                 id="async: kill the chief"),
    pytest.param(["--replication", "semi"], "invalid choice: 'semi'", id="unknown replication"),
    pytest.param(["--evaluator", "--kill", "worker:1@5"], "--kill cannot be combined with --evaluator",
                 id="fault in the Estimator cluster"),
    pytest.param(["--evaluator", "--replication", "async"], "cannot be combined with --replication async",
                 id="asynchronous Estimator cluster"),
])
def test_bad_distributed_flags_exit_2(argv, message, capsys, tmp_path):
    assert main(["parity", "--workers", "2", "--out", str(tmp_path), *argv]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "distributed-run").exists()


@pytest.mark.parametrize("flag", [["--replication", "async"], ["--evaluator"]])
def test_distributed_flags_without_workers_exit_2(flag, capsys, tmp_path):
    assert main(["parity", *flag, "--out", str(tmp_path)]) == 2
    assert "--replication, --kill and --evaluator belong to the distributed comparison: add --workers N" in \
        capsys.readouterr().err


@pytest.mark.parametrize("role_exit_code, expected", [
    pytest.param(2, 2, id="a role refused its input: usage error"),
    pytest.param(1, 1, id="a role failed: the run failed"),
    pytest.param(None, 1, id="a role was killed: the run failed"),
])
def test_a_failed_role_sets_the_exit_code(role_exit_code, expected, monkeypatch, capsys, tmp_path):
    from migrate.parity.distributed import run as distributed_run
    from migrate.parity.distributed.cluster import ClusterError

    def failing(*args, **kwargs):
        raise ClusterError("legacy worker 0 (127.0.0.1:1) exited; its log ends with: the pair cannot be used",
                           role_exit_code=role_exit_code)

    monkeypatch.setattr(distributed_run, "run_distributed", failing)
    assert main(["parity", "--workers", "2", "--out", str(tmp_path)]) == expected
    assert "the pair cannot be used" in capsys.readouterr().err
