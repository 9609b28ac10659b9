"""The records a port passes between its modules: the target's problems, what became what, the files, the verdict."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    """Why (part of) a target cannot be ported: where (``file:line``), what, and what the user can do."""

    where: str
    what: str
    todo: str

    def line(self) -> str:
        return f"{self.where or '<target>'}: {self.what} — {self.todo}"


class PortRefused(Exception):
    """The target cannot be ported; every problem found is listed (the command's exit 2)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(problem.line() for problem in problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class Conversion:
    """One row of PORT.md: a TF1 construct at ``file:line`` and the Keras code it became.

    `kind`: ``layer`` (a Keras layer), ``op`` (a TensorFlow op kept as it is: reshapes,
    casts, elementwise math), ``raw`` (an op cluster without a twin, kept as generated
    code and flagged), ``training`` (loss, optimizer, schedule, clipping) or ``input``.
    """

    where: str
    construct: str
    keras: str
    kind: str = "layer"


@dataclass
class Port:
    """A finished port: the files to write (name → text) and what became what."""

    porter: str
    files: dict[str, str]
    conversions: list[Conversion] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    check_options: dict = field(default_factory=dict)
    """`config_for` keywords of the parity check (the tolerances of a rounding-level port)."""


@dataclass(frozen=True)
class Verdict:
    """The parity check of a written port: ``holds``, ``broken`` or ``not checked``, and its summary text."""

    status: str
    summary: str
    steps: int = 0

    @property
    def exit_code(self) -> int:
        return 1 if self.status == "broken" else 0
