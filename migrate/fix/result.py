"""What fixing one module gives back: the fixed text, the rewrites made and the uses declined.

Its own module so the movers (`migrate.fix.fast_moves`, `migrate.fix.module_moves`) return
it without importing `migrate.fix.engine`, which imports them: no import cycle.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from migrate.fix.edits import Layout


class FixFailed(Exception):
    """The module cannot be fixed (syntax error, or a rewrite that would not parse)."""


@dataclass(frozen=True)
class Declined:
    """One use a fix left as is: where, under which rule, as spelled, and why."""

    line: int
    code: str
    spelling: str
    reason: str


@dataclass
class FixResult:
    text: str
    changed: bool
    rewrites: int = 0
    declined: list[Declined] = field(default_factory=list)
    layout: Layout | None = None
    """Where the rewrite moved the original lines and columns, when it was made by one-line edits and inserted
    lines only (None: unknown, as when LibCST wrote the text)."""
