"""Suite-wide settings: deterministic CPU kernels and the real MNIST loader."""
from __future__ import annotations

import os
from pathlib import Path

# Must be set before TensorFlow is first imported: oneDNN kernels are not bit-reproducible.
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import pytest

TESTS = Path(__file__).resolve().parent
pytest_plugins = ["pytester"]  # tests/migrate/parity/test_pytest_plugin.py runs a user's suite


TF_FREE_DIRECTORIES = tuple(TESTS / "migrate" / name for name in ("report", "fix", "core"))
"""The scanning side's tests: they run without TensorFlow, except those marked `tensorflow`."""


def pytest_collection_modifyitems(config, items):
    """Everything under tests/legacy needs tf.estimator (TF 2.15 only); whatever needs tf.estimator needs TensorFlow;
    a TF-free directory's test that does not need TensorFlow is `tf_free` (one TensorFlow version runs it)."""
    legacy = TESTS / "legacy"
    for item in items:
        parents = Path(str(item.fspath)).parents
        if legacy in parents:
            item.add_marker(pytest.mark.estimator)
        if item.get_closest_marker("estimator") is not None:
            item.add_marker(pytest.mark.tensorflow)
        if item.get_closest_marker("tensorflow") is None and any(path in parents for path in TF_FREE_DIRECTORIES):
            item.add_marker(pytest.mark.tf_free)


@pytest.fixture(scope="session")
def mnist():
    """The real MNIST through the real loader (cache filled by `dev.py`'s setup step)."""
    from migrate.core.mnist import load_mnist

    return load_mnist()
