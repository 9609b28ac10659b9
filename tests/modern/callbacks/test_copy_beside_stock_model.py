"""Each file of modern/callbacks/, copied alone into an empty directory beside a stock model script, works with its
defaults and behaves like its TF1 hook: the suite's one run of the stock-model scenarios.

One interpreter runs every file (each in its own directory, imported without
the project on the path), with the Keras this suite runs on: Keras 2.15,
Keras 3, or tf-keras under ``TF_USE_LEGACY_KERAS=1``.
"""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import modern
from tests.modern.callbacks import stock_model

CALLBACKS = Path(modern.__file__).parent / "callbacks"
FILES = sorted(path for path in CALLBACKS.glob("*.py") if path.name != "__init__.py")
ALLOWED_ROOTS = {"tensorflow", "numpy", "__future__"} | set(sys.stdlib_module_names)


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_imports_only_tensorflow_numpy_and_stdlib(path):
    """Keras comes as `from tensorflow import keras`: Keras 2.15, Keras 3 or tf-keras, whichever TF is set up with."""
    roots = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            roots.add((node.module or "").split(".")[0])
    assert roots <= ALLOWED_ROOTS, f"{path.name} imports {sorted(roots - ALLOWED_ROOTS)}"


def test_each_copied_file_runs_beside_a_stock_model(tmp_path):
    shutil.copy(stock_model.__file__, tmp_path / "stock_model.py")
    directories = []
    for path in FILES:
        directory = tmp_path / path.stem
        directory.mkdir()
        shutil.copy(path, directory / path.name)
        directories.append(path.stem)
    result = subprocess.run(
        [sys.executable, "-I", "stock_model.py", *directories], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr[-4000:]
    assert result.stdout.split() == [word for stem in directories for word in ("ok", stem)], result.stdout
