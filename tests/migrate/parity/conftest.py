"""The synchronous distributed run shared by the parity package: 2 workers per side, worker 1 killed mid-run.

`faulted_run` checks parity (losses, per-role events, accuracy), the fault
story (restart from the last checkpoint, replayed steps identical, nothing
corrupt) and the files written (`distributed/test_run.py`), and its summary
is held to the single-process one's schema (`test_parity_command.py`), so the
suite launches only four clusters for it.
"""
from __future__ import annotations

import pytest

from migrate.parity.distributed.cluster import Fault
from migrate.parity.distributed.run import DistributedConfig, run_distributed
from tests.distributed_runs import mnist_run

STEPS, SAVE_STEPS, KILL_STEP = 16, 4, 6


@pytest.fixture(scope="package")
def faulted_run(tmp_path_factory, mnist):
    config = DistributedConfig(mnist_run(STEPS), workers=2, save_steps=SAVE_STEPS, log_steps=SAVE_STEPS,
                               kill=Fault("worker", 1, KILL_STEP), timeout=240)
    return run_distributed(config, tmp_path_factory.mktemp("distributed") / "run", progress=lambda _: None)
