"""The Palmer penguins for the canned-estimator sources here: `examples/canned_dnn`'s pinned loader, reused.

The CSV comes from the PyPI wheel ``palmerpenguins==0.1.6`` (downloaded once
with ``pip download --no-deps``, sha256-pinned; see examples/canned_dnn).
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_LOADER = Path(__file__).resolve().parents[1] / "canned_dnn" / "pair.py"


def _load_loader():
    name = "canned_dnn_penguins_loader"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, _LOADER)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


_loader = _load_loader()
load_split = _loader.load_split
standardization = _loader.standardization
ISLANDS, SEXES, SPECIES, NUMERIC = _loader.ISLANDS, _loader.SEXES, _loader.SPECIES, _loader.NUMERIC


def standardize(scale: float, offset: float):
    """A normalizer_fn ``x * scale + offset`` (a closure over two floats: the port writes it back as code)."""
    def normalizer_fn(x):
        return x * scale + offset

    return normalizer_fn
