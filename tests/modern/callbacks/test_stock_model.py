"""Every callback, with default arguments, on a stock compiled model (no custom `train_step`), behaves like its TF1 hook.

The scenarios live in `stock_model.py`, which `test_copy_beside_stock_model.py`
also runs beside copied files; here they run in-process on `modern.callbacks`.
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import modern
from tests.modern.callbacks.stock_model import SCENARIOS

CALLBACKS = Path(modern.__file__).parent / "callbacks"
STEMS = sorted(path.stem for path in CALLBACKS.glob("*.py") if path.name != "__init__.py")


def test_every_callback_file_has_a_scenario():
    assert sorted(SCENARIOS) == STEMS


@pytest.mark.parametrize("stem", STEMS)
def test_defaults_on_a_stock_model_behave_like_the_tf1_hook(stem, tmp_path):
    SCENARIOS[stem](importlib.import_module(f"modern.callbacks.{stem}"), tmp_path)


def test_the_step_loss_helper_is_the_same_in_every_file():
    """`_StepLoss` is copied into each file that needs it (so each stands alone); the copies must not drift."""
    copies = {}
    for path in sorted(CALLBACKS.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and node.name == "_StepLoss":
                copies[path.stem] = ast.dump(node)
    assert sorted(copies) == ["event_recorder", "logging_tensor", "stop_on_condition", "summary_saver"]
    assert len(set(copies.values())) == 1, "the _StepLoss copies differ: change them all the same way"
