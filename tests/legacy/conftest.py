"""Fixtures for the legacy tests: small real-MNIST slices and fresh Estimators."""
from __future__ import annotations

from collections.abc import Callable

import pytest


@pytest.fixture(scope="session")
def small(mnist):
    """The first 1,000 training and 200 test images of the real MNIST."""
    return mnist.head(1000, 200)


@pytest.fixture(scope="session")
def train_arrays(small):
    return small.x_train, small.y_train


@pytest.fixture(scope="session")
def test_arrays(small):
    return small.x_test, small.y_test


@pytest.fixture
def make_estimator(tmp_path) -> Callable:
    """`make_estimator(name="model", **kwargs)`: a `legacy.estimator.make_estimator` in a fresh model dir."""
    from legacy.estimator import make_estimator as build

    def factory(name: str = "model", **kwargs):
        kwargs.setdefault("save_checkpoints_steps", 1000)
        kwargs.setdefault("log_step_count_steps", None)
        return build(tmp_path / name, **kwargs)

    return factory
