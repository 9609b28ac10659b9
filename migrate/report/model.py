"""The plain data the scan produces; picklable, so worker processes can return it.

Records are `NamedTuple`s and `FileResult` a small class with `__slots__`, not
dataclasses: importing `dataclasses` (it imports `inspect`) and generating a
dataclass's methods cost about 5 ms plus 0.3-0.6 ms a class, paid by every
`migrate report` run before a file is read (a pre-commit hook on a few files
is mostly start-up); a `NamedTuple` costs 0.07 ms and compares, orders and
pickles as a tuple, which is what these records need.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import NamedTuple

Locator = Callable[[int], tuple[int | None, int]]
"""A line of the scanned text → (its notebook cell or None, its line in the file or the cell)."""


class Finding(NamedTuple):
    """One thing to change, at a place in a file (notebooks: code cell + line in it).

    Findings sort by path, cell, line, column, code, then message (tuple order).
    """

    path: str
    cell: int | None
    line: int
    column: int
    code: str
    message: str

    @property
    def where(self) -> str:
        if self.cell is not None:
            return f"cell {self.cell}, line {self.line}"
        return f"{self.line}:{self.column + 1}"


class MethodInfo(NamedTuple):
    """A method of a class; `findings` are those of `MethodBody` checks, kept only if the class is a hook."""

    name: str
    line: int
    findings: list[Finding]


class ClassInfo(NamedTuple):
    """A class as written; whether it is a hook is decided later, across files."""

    qualname: str
    line: int
    column: int
    cell: int | None
    bases: list[str | None]
    base_texts: list[str]
    methods: dict[str, MethodInfo]
    """Its SessionRunHook protocol methods (`begin`, `after_run`, …) only: all the hierarchy asks of a class."""

    @property
    def name(self) -> str:
        return self.qualname.rpartition(".")[2]


class FileResult:
    """Everything one file contributes; `skipped` is the reason when it could not be scanned."""

    __slots__ = (
        "path", "module", "module_names", "skipped", "findings", "classes", "exports", "suppressions",
        "hook_passes", "notes", "wrappers", "class_calls",
    )

    def __init__(self, path: str, module: str = "", module_names: tuple[str, ...] = (), skipped: str | None = None) -> None:
        self.path = path
        self.module = module
        self.module_names = module_names
        self.skipped = skipped
        self.findings: list[Finding] = []
        self.classes: list[ClassInfo] = []
        self.exports: dict[str, str] = {}
        self.suppressions: dict[tuple[int | None, int], frozenset[str] | None] = {}
        self.hook_passes: list[tuple[str, str]] = []
        """(qualified class name, phase) for each class passed as a hook: `migrate.report.phases`."""
        self.notes: list[str] = []
        self.wrappers: dict[str, str] = {}
        """Top-level functions returning a TensorFlow module: name → its qualified name."""
        self.class_calls: list[tuple[str, int | None, int, int, str]] = []
        """(qualified name, cell, line, column, spelling) of calls of non-TensorFlow `CamelCase` names."""

    def _fields(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        """Defining it leaves the class unhashable (`__hash__` is None): mutable, as a dataclass without frozen=True."""
        return type(other) is FileResult and self._fields() == other._fields()

    def __repr__(self) -> str:
        return f"FileResult({', '.join(f'{name}={value!r}' for name, value in zip(self.__slots__, self._fields()))})"

    def __getstate__(self) -> tuple:
        """The fields, findings as plain tuples: pickled one by one, a `Finding` costs a Python call to
        `__getnewargs__` in the worker and one to its class's `__new__` in the parent (thousands a run).

        Equal messages are made one string first (`_shared_message`): the advice repeats (tensor2tensor's
        4,146 findings have 317 distinct messages), and pickle writes a string it has seen in the same
        dump as a reference to it — a third less to pickle, send and read back (1.18 → 0.80 MB), and
        the parent's renderers see one object per message.
        """
        fields = self._fields()
        findings = [
            (path, cell, line, column, code, _shared_message(message, message))
            for path, cell, line, column, code, message in self.findings
        ]
        return (*fields[:_FINDINGS], findings, *fields[_FINDINGS + 1:])

    def __setstate__(self, state: tuple) -> None:
        for name, value in zip(self.__slots__, state):
            setattr(self, name, value)
        self.findings = list(map(as_finding, self.findings))


_FINDINGS = FileResult.__slots__.index("findings")
_SHARED_MESSAGES: dict[str, str] = {}
_shared_message = _SHARED_MESSAGES.setdefault
"""`_shared_message(text, text)`: the one string of each distinct message this process has pickled."""
as_finding = partial(tuple.__new__, Finding)
"""A plain tuple of a `Finding`'s fields as a `Finding` (what `Finding._make` does, without its Python frame): for
the thousands made a run, by the checks (`migrate.report.analysis`) and when the parent unpickles them."""
