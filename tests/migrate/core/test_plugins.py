from __future__ import annotations

import sys
from pathlib import Path

from migrate.core.plugins import import_all, module_names


def test_module_names_lists_modules_and_subpackages_sorted(tmp_path: Path) -> None:
    for name in ("b_rule.py", "a_rule.py", "__init__.py", "notes.txt", "not-a-name.py", "backup.py.orig"):
        (tmp_path / name).write_text("")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "__init__.py").write_text("")
    (tmp_path / "data").mkdir()  # no __init__.py: not a package
    (tmp_path / "__pycache__").mkdir()
    assert module_names([str(tmp_path)]) == ["a_rule", "b_rule", "sub"]
    assert module_names([str(tmp_path / "missing")]) == []


def test_import_all_imports_every_module_of_a_package(tmp_path: Path, monkeypatch) -> None:
    package = tmp_path / "plugins_under_test"
    package.mkdir()
    (package / "__init__.py").write_text("LOADED = []\n")
    for name in ("one", "two"):
        (package / f"{name}.py").write_text(f"from plugins_under_test import LOADED\nLOADED.append({name!r})\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import plugins_under_test

    try:
        import_all("plugins_under_test", plugins_under_test.__path__)
        assert plugins_under_test.LOADED == ["one", "two"]
    finally:
        for name in [name for name in sys.modules if name.startswith("plugins_under_test")]:
            del sys.modules[name]
