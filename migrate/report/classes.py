"""Where classes and their protocol methods are in a module: shared by the scan and the scaffold.

`iter_classes` yields every class with its qualified name, nested and local
ones included (`f.<locals>.C`), the way Python's `__qualname__` spells them,
so a class found by the report is found again by `migrate scaffold`.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.core.protocol import HOOK_METHODS as PROTOCOL_METHODS  # noqa: F401  (the one list lives in the core)

COMPOUND_STATEMENTS = (
    ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, getattr(ast, "TryStar", ast.Try),
)


def iter_classes(body: list[ast.stmt], prefix: str = "") -> Iterator[tuple[ast.ClassDef, str]]:
    """(ClassDef, qualname) for every class in `body`, nested and local ones included."""
    for statement in body:
        kind = type(statement)
        if kind is ast.ClassDef:
            qualname = f"{prefix}{statement.name}"
            yield statement, qualname
            yield from iter_classes(statement.body, f"{qualname}.")
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            yield from iter_classes(statement.body, f"{prefix}{statement.name}.<locals>.")
        elif isinstance(statement, COMPOUND_STATEMENTS):
            yield from iter_classes(statement.body, prefix)
            yield from iter_classes(getattr(statement, "orelse", ()), prefix)
            for handler in getattr(statement, "handlers", ()):
                yield from iter_classes(handler.body, prefix)
            yield from iter_classes(getattr(statement, "finalbody", ()), prefix)
        elif kind.__name__ == "Match":
            for case in statement.cases:
                yield from iter_classes(case.body, prefix)
