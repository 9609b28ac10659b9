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


def pytest_collection_modifyitems(config, items):
    """Everything under tests/legacy needs tf.estimator (TF 2.15 only); whatever needs tf.estimator needs TensorFlow."""
    legacy = TESTS / "legacy"
    for item in items:
        if legacy in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.estimator)
        if item.get_closest_marker("estimator") is not None:
            item.add_marker(pytest.mark.tensorflow)


@pytest.fixture(scope="session")
def mnist():
    """The real MNIST through the real loader (cache filled by `dev.py`'s setup step)."""
    from migrate.core.mnist import load_mnist

    return load_mnist()
