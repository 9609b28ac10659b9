"""Continuation lines of a rewritten call, re-aligned to its moved opening parenthesis.

`tf.logging.info("x %d",\\n                 step)` aligned its second line to
the `(`; after `migrate fix` writes `logging.info(` the `(` is three columns
to the left and the argument would hang out of line. After any rewrite, the
calls of the old and the new text are paired in source order (a rewrite
changes names, never the number of calls); where a call spans several lines,
its `(` moved, and one of its continuation lines started right after the old
`(` (aligned, as PEP 8's "aligned with opening delimiter"), every
continuation line of the call moves by the same amount — nested calls' shifts
add up — except lines inside a multi-line string, whose text is data.
Hanging indents (the first argument on the next line) are left alone.
When the rewrite was made by byte-span edits (a `Layout`), each multi-line
call on an edited line is followed through the edits to its new place
instead: the new text is not parsed, and only a string spanning a moved line
is tokenized.
"""
from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Callable

from migrate.fix.edits import Layout
from migrate.fix.renames import physical_lines
from migrate.scanning.walk import descendants, descendants_on_lines


def realign(
    old_text: str, new_text: str, old_tree: ast.Module | None = None, layout: Layout | None = None
) -> tuple[str, ast.Module | None]:
    """`new_text` with the continuation lines of calls whose `(` moved re-aligned (unchanged when unsure), and
    its tree when this had to parse it and changed nothing (so the caller need not parse it again).
    `old_tree`: `old_text` already parsed; `layout`: how the rewrite moved lines and columns, when it is known
    (then the new text is not parsed: each call of `old_tree` on an edited line is followed to its new place)."""
    if old_text == new_text:
        return new_text, None
    old_lines, new_lines = physical_lines(old_text), physical_lines(new_text)
    if not _opens_a_call_on_a_changed_line(old_lines, new_lines):
        return new_text, None  # every rewritten call closes on its own line: nothing hangs off a moved `(`
    if layout is not None and old_tree is not None:
        return _shifted(new_text, new_lines, _layout_shifts(old_tree, old_lines, new_lines, layout),
                        lambda moving: _strings_across(old_tree, old_lines, layout, moving, new_text)), None
    try:
        old_calls = _calls(old_tree if old_tree is not None else ast.parse(old_text))
        new_tree = ast.parse(new_text)
    except (SyntaxError, ValueError):
        return new_text, None
    new_calls = _calls(new_tree)
    if len(old_calls) != len(new_calls):
        return new_text, new_tree
    shifts: dict[int, int] = {}
    for old, new in zip(old_calls, new_calls):
        old_end, new_end = old.end_lineno or old.lineno, new.end_lineno or new.lineno
        if old.lineno == old_end or new_end - new.lineno != old_end - old.lineno:
            continue
        old_open, new_open = _open_column(old, old_lines), _open_column(new, new_lines)
        if old_open is None or new_open is None or old_open == new_open:
            continue
        if not _aligned(old, old_open, old_lines):
            continue
        for line in range(new.lineno + 1, (new.end_lineno or new.lineno) + 1):
            shifts[line] = shifts.get(line, 0) + new_open - old_open
    realigned = _shifted(new_text, new_lines, shifts, lambda moving: _lines_inside_strings(new_text))
    return realigned, new_tree if realigned == new_text else None


def _layout_shifts(old_tree: ast.Module, old_lines: list[str], new_lines: list[str], layout: Layout) -> dict[int, int]:
    """New line → columns to move it by: the shifts of the multi-line calls on the edited lines, each followed
    through `layout` (a call elsewhere kept its `(` where it was)."""
    edited = layout.edited_lines()
    first_lines = frozenset(edited)
    shifts: dict[int, int] = {}
    for old in descendants_on_lines(old_tree, edited):
        if type(old) is not ast.Call or old.lineno not in first_lines or (old.end_lineno or old.lineno) == old.lineno:
            continue
        old_open = _open_column(old, old_lines)
        if old_open is None:
            continue
        new_line = layout.line(old.lineno)
        raw = new_lines[new_line - 1].encode("utf-8")
        end = layout.column(old.lineno, old.func.end_col_offset or 0)
        if raw[end:end + 1] != b"(":
            continue
        new_open = len(raw[:end].decode("utf-8", errors="replace"))
        if new_open == old_open or not _aligned(old, old_open, old_lines):
            continue
        for line in range(old.lineno + 1, (old.end_lineno or old.lineno) + 1):
            shifted = layout.line(line)
            shifts[shifted] = shifts.get(shifted, 0) + new_open - old_open
    return shifts


def _strings_across(old_tree: ast.Module, old_lines: list[str], layout: Layout, moving: list[int], new_text: str) -> set[int]:
    """Which of the new lines `moving` are inside a multi-line string, found from the original strings that
    span them, each tokenized on its own (the text of a string node holds only strings, comments and line
    breaks, and the braces of f-strings); the whole new text when one of them cannot be."""
    original = sorted(_original_line(layout, line) for line in moving)
    inside: set[int] = set()
    for node in descendants_on_lines(old_tree, original):
        if not (type(node) is ast.Constant and isinstance(node.value, (str, bytes)) or type(node) is ast.JoinedStr):
            continue
        end = node.end_lineno or node.lineno
        if not any(node.lineno < line <= end for line in original):
            continue
        first, last = old_lines[node.lineno - 1].encode("utf-8"), old_lines[end - 1].encode("utf-8")
        middle = "".join(old_lines[node.lineno:end - 1])
        segment = first[node.col_offset:].decode("utf-8") + middle + last[:node.end_col_offset].decode("utf-8")
        found = _string_token_lines("(" + segment + ")")
        if found is None:
            return _lines_inside_strings(new_text)
        inside.update(layout.line(node.lineno + line - 1) for line in found)
    return inside


def _original_line(layout: Layout, new_line: int) -> int:
    """The original line that `layout` moved to `new_line` (a continuation line, never an inserted one)."""
    line = new_line
    while layout.line(line) > new_line:
        line -= 1
    return line


def _aligned(call: ast.Call, open_column: int, lines: list[str]) -> bool:
    """One of the call's continuation lines starts right after its `(` (PEP 8's "aligned with opening delimiter")."""
    return any(_indent(lines[line - 1]) == open_column + 1 for line in range(call.lineno + 1, (call.end_lineno or call.lineno) + 1))


def _shifted(new_text: str, new_lines: list[str], shifts: dict[int, int], strings: Callable[[list[int]], set[int]]) -> str:
    """`new_text` with each line of `shifts` moved by its columns, except the blank ones and those inside a
    multi-line string (`strings`: of the lines to move, those inside one)."""
    moving = [line for line, shift in shifts.items() if shift != 0 and new_lines[line - 1].strip()]
    if not moving:
        return new_text
    inside_strings = strings(moving)
    for line in moving:
        if line in inside_strings:
            continue
        shift = shifts[line]
        text = new_lines[line - 1]
        indent = _indent(text)
        if shift < 0 and indent + shift < 0:
            continue
        new_lines[line - 1] = " " * (indent + shift) + text[indent:]
    return "".join(new_lines)


def _opens_a_call_on_a_changed_line(old_lines: list[str], new_lines: list[str]) -> bool:
    """Some line the rewrite changed leaves a bracket open (more `(` than `)`): a call continues below it.
    (Lines are compared in order; when the rewrite added lines — an import — every new line counts as changed.)"""
    old = set(old_lines)
    return any(line not in old and line.count("(") > line.count(")") for line in new_lines)


def _calls(tree: ast.AST) -> list[ast.Call]:
    calls = [node for node in descendants(tree) if type(node) is ast.Call]
    calls.sort(key=lambda node: (node.lineno, node.col_offset, -(node.end_lineno or 0), -(node.end_col_offset or 0)))
    return calls


def _open_column(call: ast.Call, lines: list[str]) -> int | None:
    """The character column of the call's `(`, when it directly follows the function on the same line."""
    func = call.func
    if func.end_lineno != call.lineno or func.end_col_offset is None:
        return None
    raw = lines[call.lineno - 1].encode("utf-8")
    if raw[func.end_col_offset:func.end_col_offset + 1] != b"(":
        return None
    return len(raw[:func.end_col_offset].decode("utf-8", errors="replace"))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _lines_inside_strings(text: str) -> set[int]:
    """Lines after the first of a multi-line string token (their leading spaces are the string's); every line
    when `text` cannot be tokenized (unsure: shift nothing)."""
    lines = _string_token_lines(text)
    return set(range(1, text.count("\n") + 2)) if lines is None else lines


def _string_token_lines(text: str) -> set[int] | None:
    """Lines after the first of a multi-line string token; None when `text` cannot be tokenized."""
    lines: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in _STRING_TOKENS and token.end[0] > token.start[0]:
                lines.update(range(token.start[0] + 1, token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        return None
    return lines


_STRING_TOKENS = frozenset({tokenize.STRING, *(getattr(tokenize, name) for name in ("FSTRING_MIDDLE",) if hasattr(tokenize, name))})
