"""Load an example pair the way `migrate parity --pair FILE` does: from its path, as a fresh module."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_pair(name: str) -> ModuleType:
    path = EXAMPLES / name / "pair.py"
    spec = importlib.util.spec_from_file_location(f"example_pair_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
