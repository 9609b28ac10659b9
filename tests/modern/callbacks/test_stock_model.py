"""Every callback file has a stock-model scenario, and the helper copied into several files has not drifted.

The scenarios (each callback, with default arguments, on a stock compiled model
behaves like its TF1 hook) live in `stock_model.py`; they run once per Keras, on
byte-identical copies of the files, in `test_copy_beside_stock_model.py`.
"""
from __future__ import annotations

import ast
from pathlib import Path

import modern
from tests.modern.callbacks.stock_model import SCENARIOS

CALLBACKS = Path(modern.__file__).parent / "callbacks"
STEMS = sorted(path.stem for path in CALLBACKS.glob("*.py") if path.name != "__init__.py")


def test_every_callback_file_has_a_scenario():
    assert sorted(SCENARIOS) == STEMS


def test_the_step_loss_helper_is_the_same_in_every_file():
    """`_StepLoss` is copied into each file that needs it (so each stands alone); the copies must not drift."""
    copies = {}
    for path in sorted(CALLBACKS.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and node.name == "_StepLoss":
                copies[path.stem] = ast.dump(node)
    assert sorted(copies) == ["event_recorder", "logging_tensor", "stop_on_condition", "summary_saver"]
    assert len(set(copies.values())) == 1, "the _StepLoss copies differ: change them all the same way"
