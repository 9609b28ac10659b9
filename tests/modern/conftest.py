"""Small real-MNIST slices and a fast way to `fit` a few steps (batch 32)."""
from __future__ import annotations

import logging

import numpy as np
import pytest

from modern.model import build_model
from modern.pipeline import eval_dataset, train_dataset

BATCH = 32


@pytest.fixture(scope="session")
def tiny(mnist):
    """256 training and 96 test examples."""
    return mnist.x_train[:256], mnist.y_train[:256], mnist.x_test[:96], mnist.y_test[:96]


@pytest.fixture
def model():
    return build_model({"dropout_rate": 0.0})


@pytest.fixture
def train_data(tiny):
    return train_dataset(tiny[0], tiny[1], BATCH)


@pytest.fixture
def finite_train_data(tiny):
    """One pass over 256 examples: 8 batches, unknown cardinality (a generator)."""
    return train_dataset(tiny[0], tiny[1], BATCH, repeat=False)


@pytest.fixture
def test_data(tiny):
    """96 examples in batches of 32, plus none left over: 3 batches."""
    return eval_dataset(tiny[2], tiny[3], BATCH)


class ListHandler(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture
def log_lines():
    """A private logger for callbacks that log, and the lines it received."""
    logger = logging.getLogger(f"modern-tests-{id(object())}")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    handler = ListHandler()
    logger.addHandler(handler)
    yield logger, handler.messages
    logger.removeHandler(handler)


def global_step(model) -> int:
    return int(np.asarray(model.optimizer.iterations))
