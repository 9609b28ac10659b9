"""The shared asynchronous run for the whole package, 2 workers per side, worker 1 killed mid-run on each side.

`async_faulted_run` checks the asynchronous clusters (two clusters, the
killed worker restarted alone) as `faulted_run` (tests/migrate/parity/conftest.py)
does the synchronous ones.
"""
from __future__ import annotations

import pytest

from migrate.parity.distributed.cluster import Fault
from migrate.parity.distributed.run import DistributedConfig, run_distributed
from tests.distributed_runs import mnist_run

ASYNC_STEPS, ASYNC_SAVE_STEPS, ASYNC_KILL_STEP = 96, 24, 6
"""Long enough that a TF1 worker 1 starting seconds after the chief (which waits for nobody) still joins mid-run: at 48
steps the chief, fed by the MNIST pair's input, once finished before worker 1 was killed on a loaded machine."""


@pytest.fixture(scope="package")
def async_faulted_run(tmp_path_factory, mnist):
    config = DistributedConfig(mnist_run(ASYNC_STEPS), workers=2, save_steps=ASYNC_SAVE_STEPS,
                               log_steps=ASYNC_SAVE_STEPS, kill=Fault("worker", 1, ASYNC_KILL_STEP), timeout=240,
                               replication="async")
    return run_distributed(config, tmp_path_factory.mktemp("distributed-async") / "run", progress=lambda _: None)
