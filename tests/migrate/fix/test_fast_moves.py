"""The module moves without LibCST (`migrate.fix.fast_moves`) write what LibCST writes, and say the same.

Every source of the engine's tables is moved both ways; where the fast path
takes a file (it declines those that bind a moved module to a name), text and
declined uses must be identical.
"""
from __future__ import annotations

import ast
import textwrap

import pytest

from migrate.fix.fast_moves import move_modules_fast
from migrate.fix.module_moves import move_modules
from migrate.fix.registry import load_fixes
from tests.migrate.fix.test_engine import CASES, NO_OP

MOVES = {code: fix for code, fix in load_fixes().items() if fix.moves}
TABLE = [(case.id, textwrap.dedent(case.values[0])) for case in [*NO_OP, *CASES]]
SOURCES = [source for _, source in TABLE]
FAST = [(case_id, source) for case_id, source in TABLE if move_modules_fast(source, ast.parse(source), MOVES) is not None]
"""The sources the fast path takes (the others bind a moved module to a name: LibCST's case)."""


@pytest.mark.parametrize("source", [source for _, source in FAST], ids=[case_id for case_id, _ in FAST])
def test_fast_path_writes_what_libcst_writes(source: str) -> None:
    fast, slow = move_modules_fast(source, ast.parse(source), MOVES), move_modules(source, MOVES)
    assert fast.text == slow.text
    assert [(item.line, item.spelling, item.reason) for item in fast.declined] == [
        (item.line, item.spelling, item.reason) for item in slow.declined
    ]


def test_most_table_sources_take_the_fast_path() -> None:
    assert len(FAST) >= len(SOURCES) // 2
