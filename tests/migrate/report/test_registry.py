"""Every rule module has the documented shape (Ruff's rule pages, pyupgrade's registry)."""
from __future__ import annotations

import ast
import pkgutil
import re
from pathlib import Path

import pytest

import migrate.report.rules as rules_package
from migrate.report.registry import CHECKS, SECTIONS, load_rules

RULES = load_rules()
ROOT = Path(__file__).resolve().parents[3]


def test_one_module_per_rule() -> None:
    modules = [info.name for info in pkgutil.iter_modules(rules_package.__path__)]
    assert len(modules) == len(RULES) >= 30


def test_every_check_is_registered_under_a_known_rule() -> None:
    assert all(rule.code in RULES for checks in CHECKS.values() for rule, _ in checks)


@pytest.mark.parametrize("code", list(RULES))
def test_rule_shape(code: str) -> None:
    rule = RULES[code]
    assert re.fullmatch(r"TFM[1-5]\d\d", rule.code)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name)
    assert rule.fix in ("automatic", "manual")
    positions = [rule.doc.find(f"## {section}\n") for section in SECTIONS]
    assert -1 not in positions and positions == sorted(positions), f"{code}: sections missing or out of order"
    assert "Checks for" in rule.doc
    if rule.modern_equivalent:
        assert rule.modern_equivalent.startswith("modern/")


def test_names_are_unique() -> None:
    names = [rule.name for rule in RULES.values()]
    assert len(names) == len(set(names))


def test_no_tensorflow_or_numpy_import_in_the_report_package() -> None:
    for path in (ROOT / "migrate" / "report").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            assert not [module for module in modules if module.split(".")[0] in ("tensorflow", "numpy")], path


def test_a_rule_with_an_unknown_effort_or_a_taken_code_is_refused(monkeypatch) -> None:
    from migrate.report import registry

    monkeypatch.setattr(registry, "RULES", dict(registry.RULES))
    with pytest.raises(ValueError, match="effort must be one of"):
        registry.declare(registry.Rule("TFM990", "made-up", "rethink", "Made up.\n"))
    with pytest.raises(ValueError, match="defined twice"):
        registry.declare(registry.Rule("TFM101", "impostor", "rename", "Made up.\n"))
    assert "TFM990" not in registry.RULES and registry.RULES["TFM101"].name == "estimator"
