"""`modern.distributed.ps.loop`: the join interval, and a real coordinator + ps + 2 workers on Keras 3.

On TF 2.15 the cluster runs in the shared asynchronous faulted run
(tests/migrate/parity/distributed); here on Keras 3, where `fit` has no
ParameterServerStrategy support and `optimizer.iterations` loses concurrent
increments (the loop counts updates itself).
"""
from __future__ import annotations

import keras
import pytest

from migrate.parity.distributed.run import DistributedConfig, run_distributed
from modern.distributed.ps.loop import window_for
from tests.distributed_runs import mnist_run


@pytest.mark.parametrize("intervals, window", [((10, 10), 10), ((6, 4), 2), ((None, 5), 5), ((), 1)])
def test_the_loop_joins_at_the_gcd_of_the_callback_intervals(intervals, window):
    assert window_for(*intervals) == window


@pytest.mark.skipif(int(keras.__version__.split(".")[0]) < 3, reason="Keras 2.15 runs in the shared async faulted run")
def test_a_parameter_server_cluster_on_keras3_trains_to_the_step_and_checkpoints_on_the_coordinator(mnist, tmp_path):
    config = DistributedConfig(mnist_run(8, train_examples=256, eval_examples=64), workers=2, save_steps=4,
                               log_steps=4, sides=("modern",), timeout=240, replication="async")
    result, sides = run_distributed(config, tmp_path / "run", progress=lambda _: None)
    modern = sides["modern"]
    assert result.ok, result.failures()
    coordinator = modern.traces[0]
    assert coordinator.versions["keras"].startswith("3.") and coordinator.role.final_step == 8
    assert sorted(modern.losses) == list(range(1, 9))
    assert modern.files.checkpoint_steps == [0, 4, 8] and modern.files.event_writers == ["chief"]
    assert {a.by for a in coordinator.actions} == {"CheckpointSaver", "SummarySaver", "StepCounter",
                                                                "LoggingTensor"}
