"""The MNIST pair's run for the distributed tests: small, its params settled as `migrate parity --workers N` settles them."""
from __future__ import annotations

from typing import Any

from migrate.parity.distributed.pair_run import PairRun, pair_run_for
from migrate.parity.options import ParityOptions


def mnist_run(steps: int, batch_size: int = 64, train_examples: int = 512, eval_examples: int = 128,
              **params: Any) -> PairRun:
    """The built-in MNIST pair (SGD, exact mode) on its first `train_examples` training and `eval_examples` test images."""
    return pair_run_for("mnist", ParityOptions(steps=steps, batch_size=batch_size, params={
        "train_examples": train_examples, "eval_examples": eval_examples, **params}))
