"""The launcher without TensorFlow: ports, faults, failures, timeouts, clean-up."""
from __future__ import annotations

import json
import socket
import sys
import time

import pytest

from migrate.core.progress_file import HOLD_ENV
from migrate.parity.distributed.cluster import Cluster, ClusterError, Fault, Role, cluster_spec, free_ports


def sleeper(task_type: str, index: int, seconds: float = 60.0, **kwargs) -> Role:
    return Role(task_type, index, ("-c", f"import time; time.sleep({seconds})"), **kwargs)


def make_cluster(tmp_path, roles, timeout=30.0):
    counts = {}
    for role in roles:
        counts[role.task_type] = counts.get(role.task_type, 0) + 1
    return Cluster("legacy", sys.executable, cluster_spec(counts, free_ports(len(roles))), roles, tmp_path, timeout)


def test_free_ports_are_distinct_and_the_spec_lists_them_by_role():
    ports = free_ports(3)
    assert len(set(ports)) == 3
    assert cluster_spec({"ps": 1, "worker": 2}, ports) == {
        "ps": [f"127.0.0.1:{ports[0]}"], "worker": [f"127.0.0.1:{ports[1]}", f"127.0.0.1:{ports[2]}"]}


@pytest.mark.parametrize("text, expected", [
    pytest.param("worker:1@15", Fault("worker", 1, 15), id="worker 1 at step 15"),
    pytest.param("worker:0@1", Fault("worker", 0, 1), id="the chief at step 1"),
])
def test_fault_parses(text, expected):
    assert Fault.parse(text) == expected


@pytest.mark.parametrize("text", ["worker1@15", "worker:1", "worker:x@3", "worker:1@0"])
def test_fault_rejects_malformed_text(text):
    with pytest.raises(ValueError, match="--kill"):
        Fault.parse(text)


def test_a_dying_worker_is_named_and_every_other_process_stopped(tmp_path):
    dying = Role("worker", 1, ("-c", "import sys; print('boom'); sys.exit(3)"))
    roles = [sleeper("ps", 0, waited=False), sleeper("worker", 0), dying]
    with make_cluster(tmp_path, roles) as cluster:
        cluster.start()
        with pytest.raises(ClusterError, match=r"legacy worker 1 \(127\.0\.0\.1:\d+\) exited with code 3") as error:
            cluster.wait()
        processes = list(cluster.processes.values())
    assert "boom" in str(error.value)
    assert all(process.poll() is not None for process in processes)


def test_a_port_already_taken_is_reported_before_anything_starts(tmp_path):
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    taken = holder.getsockname()[1]
    roles = [sleeper("ps", 0, waited=False), sleeper("worker", 0)]
    spec = {"ps": [f"127.0.0.1:{free_ports(1)[0]}"], "worker": [f"127.0.0.1:{taken}"]}
    with holder, Cluster("modern", sys.executable, spec, roles, tmp_path, 30) as cluster:
        with pytest.raises(ClusterError, match=f"modern worker 0: port 127.0.0.1:{taken} is already taken"):
            cluster.start()
        assert cluster.processes == {}


def test_timeout_names_the_roles_still_running_and_stops_them(tmp_path):
    with make_cluster(tmp_path, [sleeper("worker", 0)], timeout=0.3) as cluster:
        cluster.start()
        with pytest.raises(ClusterError, match="worker 0 still running after 0 s"):
            cluster.wait()
    assert all(process.poll() is not None for process in cluster.processes.values())


def test_ctrl_c_stops_every_child(tmp_path):
    cluster = make_cluster(tmp_path, [sleeper("ps", 0, waited=False), sleeper("worker", 0)])
    with pytest.raises(KeyboardInterrupt):
        with cluster:
            cluster.start()
            raise KeyboardInterrupt
    assert all(process.poll() is not None for process in cluster.processes.values())


def test_fault_kills_the_role_once_its_progress_reaches_the_step(tmp_path):
    progress = tmp_path / "progress.jsonl"
    writer = Role("worker", 1, ("-c", f"""
import json, time
with open({str(progress)!r}, "a") as handle:
    for step in range(1, 100):
        handle.write(json.dumps({{"step": step, "loss": 1.0}}) + "\\n"); handle.flush(); time.sleep(0.02)
"""), progress=progress)
    with make_cluster(tmp_path, [sleeper("worker", 0), writer]) as cluster:
        cluster.start()
        began = time.monotonic()
        outcome = cluster.wait(Fault("worker", 1, 5))
    assert outcome.status == "killed"
    assert 5 <= outcome.killed_at_step < 99
    assert time.monotonic() - began < 20
    assert cluster.processes[writer].returncode == -9


FAST_PROGRESS_WRITER = """
import sys, time
from migrate.core.progress_file import ProgressFile
progress = ProgressFile(sys.argv[1])
for step in range(1, 100000):
    progress.write({"step": step, "loss": 1.0}); time.sleep(0.001)
"""


def test_a_fault_given_at_start_holds_its_target_at_the_step_so_the_kill_lands_there_exactly(tmp_path):
    progress = tmp_path / "progress.jsonl"
    writer = Role("worker", 1, ("-c", FAST_PROGRESS_WRITER, str(progress)), progress=progress)
    with make_cluster(tmp_path, [sleeper("worker", 0), writer]) as cluster:
        cluster.start(Fault("worker", 1, 5))
        time.sleep(0.5)  # a busy launcher: the writer would be hundreds of steps further by now
        outcome = cluster.wait(Fault("worker", 1, 5))
    assert outcome.status == "killed" and outcome.killed_at_step == 5
    assert [json.loads(line)["step"] for line in progress.read_text().splitlines()] == [1, 2, 3, 4, 5]
    assert cluster.processes[writer].returncode == -9


def test_an_evaluator_outside_the_cluster_spec_that_fails_is_named_and_the_cluster_stopped(tmp_path):
    roles = [sleeper("ps", 0, waited=False), sleeper("chief", 0)]
    failing = Role("evaluator", 0, ("-c", "import sys; print('no checkpoint arrived'); sys.exit(2)"))
    spec = cluster_spec({"ps": 1, "chief": 1}, free_ports(2))
    with Cluster("legacy", sys.executable, spec, [*roles, failing], tmp_path, 30.0) as cluster:
        cluster.start()
        with pytest.raises(ClusterError, match=r"legacy evaluator 0 \(outside the training cluster\) exited with code 2"):
            cluster.wait()
        processes = list(cluster.processes.values())
    assert all(process.poll() is not None for process in processes)


def test_restart_killed_starts_the_killed_task_again_alone_and_waits_for_the_cluster(tmp_path):
    progress = tmp_path / "progress.jsonl"
    # a first run writes steps until killed; the restarted run (same TF_CONFIG) sees the file and exits 0
    writer = Role("worker", 1, ("-c", f"""
import json, os, sys, time
path = {str(progress)!r}
if os.path.exists(path) and open(path).read().count("restarted") == 0 and os.path.getsize(path) > 0:
    record = {{"step": 0, "loss": 0.0, "restarted": os.environ["TF_CONFIG"], "hold": os.environ.get({HOLD_ENV!r})}}
    open(path, "a").write(json.dumps(record) + "\\n")
    sys.exit(0)
with open(path, "a") as handle:
    for step in range(1, 1000):
        handle.write(json.dumps({{"step": step, "loss": 1.0}}) + "\\n"); handle.flush(); time.sleep(0.02)
"""), progress=progress)
    chief = Role("worker", 0, ("-c", "import time; time.sleep(1.5)"))
    with make_cluster(tmp_path, [chief, writer]) as cluster:
        cluster.start(Fault("worker", 1, 5))
        first_pid = cluster.processes[writer].pid
        outcome = cluster.wait(Fault("worker", 1, 5), restart_killed=True)
    assert outcome.status == "done" and outcome.killed == Fault("worker", 1, 5)  # killed, restarted, done
    assert outcome.killed_pid == first_pid != outcome.pids["worker:1"]
    assert 5 <= outcome.killed_at_step and outcome.killed_at_time is not None
    last = json.loads(progress.read_text().splitlines()[-1])
    assert last["hold"] is None  # the restarted task trains on: it is not told to hold
    restarted = json.loads(last["restarted"])
    assert restarted["task"] == {"type": "worker", "index": 1} and restarted["cluster"] == cluster.spec
