"""The plain data the scan produces; picklable, so worker processes can return it."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Finding:
    """One thing to change, at a place in a file (notebooks: code cell + line in it)."""

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


@dataclass
class MethodInfo:
    """A method of a class; `findings` are those of `MethodBody` checks, kept only if the class is a hook."""

    name: str
    line: int
    findings: list[Finding] = field(default_factory=list)


@dataclass
class ClassInfo:
    """A class as written; whether it is a hook is decided later, across files."""

    qualname: str
    line: int
    column: int
    cell: int | None
    bases: list[str | None]
    base_texts: list[str]
    methods: dict[str, MethodInfo]

    @property
    def name(self) -> str:
        return self.qualname.rpartition(".")[2]


@dataclass
class FileResult:
    """Everything one file contributes; `skipped` is the reason when it could not be scanned."""

    path: str
    module: str = ""
    module_names: tuple[str, ...] = ()
    skipped: str | None = None
    findings: list[Finding] = field(default_factory=list)
    classes: list[ClassInfo] = field(default_factory=list)
    exports: dict[str, str] = field(default_factory=dict)
    suppressions: dict[tuple[int | None, int], frozenset[str] | None] = field(default_factory=dict)
    hook_passes: list[tuple[str, str]] = field(default_factory=list)
    """(qualified class name, phase) for each class passed as a hook: `migrate.report.phases`."""
    notes: list[str] = field(default_factory=list)
    lines: int = 0
    wrappers: dict[str, str] = field(default_factory=dict)
    """Top-level functions returning a TensorFlow module: name → its qualified name."""
    wrapper_calls: list[str] = field(default_factory=list)
    """Qualified names of other modules' functions whose result is used like a module (`h.slim().x`)."""
    class_calls: list[tuple[str, int | None, int, int, str]] = field(default_factory=list)
    """(qualified name, cell, line, column, spelling) of calls of non-TensorFlow `CamelCase` names."""
