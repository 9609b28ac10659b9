"""Canned estimators (DNN, linear, DNN-linear combined; v1 and v2) → Keras models made of exact twins.

``migrate port`` reaches this package through its canned porter
(`migrate/port/porters/canned.py`): `capture` reads the estimator a
`model_fn` builds, `files.canned_files` writes keras_model.py and pair.py
(with `columns`, `normalizers`, `optimizers` and `emit`), `record` holds the
typed records.
"""
from __future__ import annotations

from migrate.port.canned.files import CannedFiles, canned_files
from migrate.port.canned.record import CannedEstimator, CannedRefusal

__all__ = ["CannedEstimator", "CannedFiles", "CannedRefusal", "canned_files"]
