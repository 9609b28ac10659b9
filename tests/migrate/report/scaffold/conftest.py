"""What every scaffold must satisfy (issue 14), as fixtures; the checks live in `migrate.report.scaffold.check`."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from migrate.report.scaffold.check import problems, runnable_part, survive


@pytest.fixture
def scaffold_problems() -> Callable[[str], list[str]]:
    return problems


@pytest.fixture
def without_todo_methods() -> Callable[[str], tuple[str, list[str]]]:
    return runnable_part


@pytest.fixture
def scaffold_of(write, run_scan, tmp_path):
    """scaffold_of({"proj/hooks.py": source, ...}, "x_callback.py") → that scaffold after its module docstring."""

    def make(files: dict[str, str], output: str) -> str:
        write("proj/__init__.py", "")
        for relative, source in files.items():
            write(relative, source)
        from migrate.report.scaffold import emit_callbacks

        written = emit_callbacks(run_scan(tmp_path / "proj").hooks, tmp_path / "out")
        (path,) = [path for path in written if path.name == output]
        text = path.read_text()
        return text[text.index('"""\n', 3) + 4:]

    return make


@pytest.fixture(scope="session")
def stock_model():
    """A compiled two-layer Keras model and a few batches: what a callback must survive fit/evaluate/predict on."""
    import keras
    import numpy as np

    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="relu"), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = np.linspace(0, 1, 32, dtype="float32").reshape(8, 4)
    y = x.sum(axis=1, keepdims=True)
    return model, x, y


@pytest.fixture(scope="session")
def survivors(stock_model):
    """survivors({name: callback}) → {name: what fit/evaluate/predict raised with it}; empty when all survived."""
    return lambda callbacks: survive(callbacks, *stock_model)
