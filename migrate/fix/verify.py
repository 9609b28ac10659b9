"""Does the fixed text still parse? Checked before anything is written.

A rewrite by one-line edits (`migrate.fix.edits.Layout`) changed only some
statements and inserted whole import lines; the rest of the module is the
text `ast.parse` already accepted. So only those statements are parsed again,
each on its own (indented ones inside an `if 1:`), and each inserted line:
a few lines instead of the whole module. A statement that does not parse
alone (a `try:` body's one-liner needs its `except`) sends the check to the
whole text, as does a rewrite with no layout (LibCST's).
"""
from __future__ import annotations

import ast

from migrate.fix.edits import Layout
from migrate.fix.renames import physical_lines
from migrate.scanning.walk import descendants_on_lines


def parse_error(fixed: str, old_tree: ast.Module, layout: Layout | None) -> SyntaxError | None:
    """Python's error for the fixed text, or None when it parses. `old_tree`: the original text's tree."""
    if layout is not None:
        lines = physical_lines(fixed)
        if all(_parses(piece) for piece in _changed_pieces(old_tree, layout, lines)):
            return None
    try:
        ast.parse(fixed)
    except SyntaxError as error:
        return error
    return None


def _changed_pieces(old_tree: ast.Module, layout: Layout, lines: list[str]) -> list[str]:
    """The text of each innermost statement an edit is on, and of each inserted line (fixed text)."""
    edited = layout.edited_lines()
    innermost: dict[int, tuple[int, int]] = {}
    for node in descendants_on_lines(old_tree, edited):
        if not isinstance(node, ast.stmt):
            continue
        decorators = getattr(node, "decorator_list", None)
        span = (decorators[0].lineno if decorators else node.lineno, node.end_lineno or node.lineno)
        for line in edited:
            if span[0] <= line <= span[1] and (line not in innermost or _length(span) < _length(innermost[line])):
                innermost[line] = span
    pieces = ["".join(lines[layout.line(first) - 1:layout.line(last)]) for first, last in set(innermost.values())]
    for before, count in layout.inserted.items():
        start = layout.line(before) - count
        pieces.extend(lines[start - 1:start - 1 + count])
    if len(innermost) != len(edited):
        pieces.append("(")  # an edited line in no statement: not expected, so the whole text is checked
    return pieces


def _length(span: tuple[int, int]) -> int:
    return span[1] - span[0]


def _parses(piece: str) -> bool:
    """`piece` (whole lines of one statement, indented as in the module) parses on its own."""
    text = piece if not piece[:1].isspace() else "if 1:\n" + piece
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True
