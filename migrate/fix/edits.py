"""Byte-span edits of a module's lines, and where they move what stays.

The fast rewrites (`migrate.fix.renames`, `migrate.fix.fast_moves`) are
edits on the original text: a span of one line replaced (`tf.log` →
`tf.math.log`, `tf.logging` → `logging`, `keep_dims` → `keepdims`) and
whole lines inserted (`from absl import logging`). Applied together, they
give the fixed text in one pass; kept as a `Layout`, they say where each
original line and column went, so re-aligning continuation lines needs no
parse of the fixed text (`migrate.fix.alignment`).
"""
from __future__ import annotations

from dataclasses import dataclass


class Edit:
    """Replace bytes `start`…`end` (UTF-8 offsets, as `ast` gives them) of `line` — through `end_line` — by `text`."""

    __slots__ = ("line", "start", "end", "text", "end_line")

    def __init__(self, line: int, start: int, end: int, text: str, end_line: int | None = None) -> None:
        self.line, self.start, self.end, self.text = line, start, end, text
        self.end_line = line if end_line is None else end_line


def apply_edits(lines: list[str], edits: list[Edit]) -> list[str]:
    """`lines` (physical lines, ends kept) with `edits` made; the lines an edit spanning lines took become ""."""
    new = list(lines)
    for edit in sorted(edits, key=lambda item: (item.line, item.start), reverse=True):  # from the end: offsets stay valid
        first = new[edit.line - 1].encode("utf-8")
        last = new[edit.end_line - 1].encode("utf-8")
        new[edit.line - 1] = (first[:edit.start] + edit.text.encode("utf-8") + last[edit.end:]).decode("utf-8")
        for index in range(edit.line, edit.end_line):
            new[index] = ""
    return new


@dataclass(frozen=True)
class Layout:
    """How one-line edits and inserted lines turned the original text into the fixed one.

    `edits` are the one-line edits, made on the original lines (none of them
    overlap); `inserted` is original line → how many new lines went in before
    it. Every original line is still there, in order, and a column moves only
    by the edits before it on its line.
    """

    edits: tuple[Edit, ...]
    inserted: dict[int, int]

    def edited_lines(self) -> list[int]:
        """The original lines an edit changed, sorted."""
        return sorted({edit.line for edit in self.edits})

    def line(self, line: int) -> int:
        """Original line → its line in the fixed text."""
        return line + sum(count for before, count in self.inserted.items() if before <= line)

    def column(self, line: int, column: int) -> int:
        """Original byte column on original `line` → its byte column in the fixed line (a column inside an
        edited span is not asked for: spans are whole names)."""
        return column + sum(len(edit.text.encode("utf-8")) - (edit.end - edit.start)
                            for edit in self.edits if edit.line == line and edit.end <= column)

