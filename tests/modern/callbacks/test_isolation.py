"""Every file in modern/callbacks/ works when copied ALONE into another project."""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import modern

CALLBACKS = Path(modern.__file__).parent / "callbacks"
FILES = sorted(path for path in CALLBACKS.glob("*.py") if path.name != "__init__.py")
ALLOWED_ROOTS = {"tensorflow", "keras", "numpy", "__future__"} | set(sys.stdlib_module_names)


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_imports_only_tensorflow_keras_numpy_and_stdlib(path):
    roots = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            roots.add((node.module or "").split(".")[0])
    assert roots <= ALLOWED_ROOTS, f"{path.name} imports {sorted(roots - ALLOWED_ROOTS)}"


def test_each_file_imports_alone_in_a_temporary_directory(tmp_path):
    """Each file sits alone in its own directory, so it cannot lean on a sibling; one interpreter for speed."""
    script = ["import importlib, sys"]
    for path in FILES:
        directory = tmp_path / path.stem
        directory.mkdir()
        shutil.copy(path, directory / path.name)
        script += [
            f"sys.path.insert(0, {str(directory)!r})",
            f"module = importlib.import_module({path.stem!r})",
            "sys.path.pop(0)",
            "metadata = module.TF1_EQUIVALENT",
            "assert metadata['hooks'] and (metadata['callback'] is None or hasattr(module, metadata['callback']))",
        ]
    script.append("assert not [name for name in sys.modules if name.split('.')[0] in ('modern', 'migrate', 'legacy')]")
    script.append("print('ok')")
    result = subprocess.run(
        [sys.executable, "-I", "-c", "\n".join(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-3000:]
