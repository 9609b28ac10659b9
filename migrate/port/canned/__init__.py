"""Canned estimators (DNN, linear, DNN-linear combined; v1 and v2) → Keras models made of exact twins.

`port_canned(source, out)` is the entry point (see `port`); `capture` reads
the estimator a `model_fn` builds; `columns`, `optimizers` and `emit` write
the code; `record` holds the typed records.
"""
from __future__ import annotations

from migrate.port.canned.port import CannedPort, port_canned
from migrate.port.canned.record import CannedEstimator, CannedRefusal

__all__ = ["CannedEstimator", "CannedPort", "CannedRefusal", "port_canned"]
