"""Parity for any migration: does the Keras rebuild train exactly like the TF1 `model_fn`?

A *pair* (`migrate.parity.pair`) names both sides; the engine copies the TF1
initial weights into Keras (`mapping`), then checks in stages (`stages`):
variables, forward pass, one step, N steps, evaluation. Entry points: the
`migrate parity` command, `check_parity` below, and the pytest plugin
(`migrate.parity.pytest_plugin`: `assert_parity`). The TF-free parts
(mapping, comparison, traces, reports) load without TensorFlow; the two
sides (`migrate.parity.sides.*`) import it when a check runs. This package
imports neither `legacy` nor `modern`: the built-in MNIST pair
(`migrate/pairs/mnist.py`) is a client like any user's pair.
"""
from __future__ import annotations

from typing import Any


def check_parity(pair: Any, **options: Any):
    """See `migrate.parity.api.check_parity` (imported lazily, so `import migrate.parity` stays light)."""
    from migrate.parity.api import check_parity as run

    return run(pair, **options)


__all__ = ["check_parity"]
