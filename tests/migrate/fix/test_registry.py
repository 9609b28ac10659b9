"""The fix registry drives the `[automatic]` marker; every rule says what `migrate fix` does for it."""
from __future__ import annotations

import subprocess
import sys

import pytest

from migrate.fix.registry import load_fixes
from migrate.report.registry import load_rules

RULES = load_rules()


def test_every_fix_belongs_to_a_rule() -> None:
    assert set(load_fixes()) <= set(RULES)


@pytest.mark.parametrize("code", list(RULES))
def test_marker_comes_from_the_fix_registry_and_scope_is_stated(code: str) -> None:
    rule = RULES[code]
    assert rule.fix == ("automatic" if code in load_fixes() else "manual")
    does, does_not = rule.fix_scope
    assert does and does_not


def test_the_report_side_does_not_import_libcst(tmp_path) -> None:
    """The marker and the report's messages read the fix registry, which must stay cheap to import."""
    (tmp_path / "a.py").write_text("import tensorflow as tf\ntf.logging.fatal('x')\n")
    code = (
        "import sys; from migrate.cli import main; main(['report', sys.argv[1], '--exit-zero']);"
        "print('libcst' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert "[automatic]" in done.stdout and done.stderr.strip().endswith("False")
