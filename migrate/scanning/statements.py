"""The statement pre-pass of a parsed file, and the alias table built from it.

`statement_pass` walks statements only (no expression is visited): imports,
assignments, classes, `return chain` statements and the other bindings that
may shadow an alias, each with the scope it is in. It is the first step of
the report's analysis of every file (`migrate.report.analysis`), so it is kept
as cheap as a walk of the statements can be: dispatch on `type(statement)`,
one dict lookup for the fields that hold nested statements.
"""
from __future__ import annotations

import ast
from typing import NamedTuple

from migrate.scanning.aliases import AliasTable, scoped_alias_table

COMPOUND_STATEMENTS = (
    ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, getattr(ast, "TryStar", ast.Try),
)

_NESTED_BODIES: dict[type, tuple[tuple[str, bool], ...]] = {
    kind: tuple(
        (field, field in ("handlers", "cases")) for field in ("body", "orelse", "finalbody", "handlers", "cases")
        if field in kind._fields
    )
    for kind in (*COMPOUND_STATEMENTS, ast.Match)
}
"""Statement type → its fields holding nested statements, in the order the pre-pass stacks them, each with
whether it holds clauses (`except`, `case`) rather than statements (a dict lookup per statement instead of an
isinstance chain: most statements have none)."""


class Statements(NamedTuple):
    """What the statement pre-pass finds (no expression walk: all of it is statements)."""

    imports: list[ast.Import | ast.ImportFrom]
    assignments: list[ast.Assign | ast.AnnAssign]
    classes: list[tuple[ast.ClassDef, str]]
    """(class, qualname) of every class, nested and local ones too, in source order (as `migrate.report.classes.iter_classes`)."""
    scopes: dict[int, tuple[int, int] | None]
    """id(import, chain or call assignment) → (first line, last line) of the enclosing function or class."""
    definitions: list[tuple[str, int, int, tuple[int, int] | None]]
    """(name, line, column, scope) of the other bindings that may shadow an alias: defs, classes, annotated
    assignments of something other than a chain."""
    functions: list[ast.FunctionDef | ast.AsyncFunctionDef]
    """Every function, nested ones too: its parameters shadow aliases inside it."""
    returns: dict[ast.FunctionDef, list[ast.Return]]
    """Function of the module's body → its `return name.chain` statements, nested functions and classes excluded
    (the wrapper-function candidates, `migrate.report.wrappers`), in no particular order."""
    chains: list[ast.Assign | ast.AnnAssign]
    """The assignments of a name chain (`flags = tf.flags`): the ones that may bind an alias."""
    plain: list[ast.Assign]
    """The other `=` assignments (of anything but a chain): they re-bind their targets."""
    plain_scopes: list[tuple[int, int] | None]
    """The scope of each of `plain` (a list beside it: cheaper than `scopes` for 24,600 assignments)."""
    calls: list[ast.Assign]
    """`name = f()` (a call without arguments): the ones that may bind a wrapper function's module."""


def statement_pass(body: list[ast.stmt]) -> Statements:
    """Imports, assignments, classes and `return chain` statements at any depth, with their scopes.

    The assignments are sorted by what they may bind here, where each is visited anyway, so the alias table
    (`migrate.scanning.aliases.scoped_alias_table`) and the wrapper results do not loop over all of them again.
    """
    found = Statements([], [], [], {}, [], [], {}, [], [], [], [])
    imports, assignments, classes, scopes, definitions, functions, returns, chains, plain, plain_scopes, calls = found
    pending: list[tuple[list, tuple[int, int] | None, str, bool]] = [(body, None, "", False)]
    Import, ImportFrom, Assign, AnnAssign, Return = ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.Return
    ClassDef, FunctionDef, AsyncFunctionDef, Name, Attribute = ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.Name, ast.Attribute
    Call, Constant, Expr = ast.Call, ast.Constant, ast.Expr
    nested_bodies = _NESTED_BODIES
    top_level: dict[tuple[int, int], ast.FunctionDef] = {}
    """Scope → the function of the module's body it is (whose returns are kept)."""
    while pending:
        statements, scope, prefix, import_fallback = pending.pop()
        for statement in statements:
            kind = type(statement)
            if kind is Assign:
                value = statement.value
                value_kind = type(value)
                if value_kind is Name or value_kind is Attribute:
                    chains.append(statement)
                    if scope is not None:
                        scopes[id(statement)] = scope
                elif import_fallback and value_kind is Constant and value.value is None:
                    continue  # `except ImportError: contrib_layers = None`: the code is written for the import
                else:
                    plain.append(statement)
                    plain_scopes.append(scope)
                    if value_kind is Call and not value.args and not value.keywords:
                        calls.append(statement)
                        if scope is not None:
                            scopes[id(statement)] = scope
                assignments.append(statement)
            elif kind is Expr:
                continue  # the second commonest statement (11,100 of tensor2tensor's 64,500) binds nothing
            elif kind is FunctionDef or kind is ClassDef or kind is AsyncFunctionDef:
                inner = (statement.lineno, statement.end_lineno or statement.lineno)
                definitions.append((statement.name, inner[1], statement.end_col_offset or 0, scope))
                if kind is ClassDef:
                    qualname = f"{prefix}{statement.name}"
                    classes.append((statement, qualname))
                    pending.append((statement.body, inner, f"{qualname}.", False))
                else:
                    functions.append(statement)
                    pending.append((statement.body, inner, f"{prefix}{statement.name}.<locals>.", False))
                    if statements is body and kind is FunctionDef:
                        top_level[inner] = statement
            elif kind is Return:
                value = statement.value
                if scope is not None and (type(value) is Name or type(value) is Attribute):
                    owner = top_level.get(scope)
                    if owner is not None:
                        returns.setdefault(owner, []).append(statement)
            elif kind is Import or kind is ImportFrom:
                imports.append(statement)
                if scope is not None:
                    scopes[id(statement)] = scope
            elif kind is AnnAssign:
                _annotated(statement, scope, import_fallback, found)
            else:
                fields = nested_bodies.get(kind)
                if fields is not None:
                    _push_nested(statement, fields, (scope, prefix, import_fallback), pending)
    if len(classes) > 1:
        classes.sort(key=lambda item: (item[0].lineno, item[0].col_offset))
    return found


def _push_nested(
    statement: ast.stmt, fields: tuple[tuple[str, bool], ...], context: tuple[tuple[int, int] | None, str, bool],
    pending: list[tuple[list, tuple[int, int] | None, str, bool]],
) -> None:
    """The statement lists a compound statement holds (`_NESTED_BODIES`), onto `statement_pass`'s stack in the
    (scope, qualname prefix, import fallback) `context` it is in; an `except ImportError:` clause's body is a fallback."""
    scope, prefix, import_fallback = context
    for field, clauses in fields:
        value = getattr(statement, field)
        if clauses:
            pending.extend((clause.body, scope, prefix, _catches_import_error(clause)) for clause in value)
        elif value:
            pending.append((value, scope, prefix, import_fallback))


def _annotated(statement: ast.AnnAssign, scope: tuple[int, int] | None, import_fallback: bool, found: Statements) -> None:
    """`name: T = value` (rare, so out of the hot loop): a chain like `=`'s, or a re-binding of a plain name."""
    value = statement.value
    if import_fallback and type(value) is ast.Constant and value.value is None:
        return
    found.assignments.append(statement)
    if type(value) is ast.Name or type(value) is ast.Attribute:
        found.chains.append(statement)
        if scope is not None:
            found.scopes[id(statement)] = scope
    elif value is not None and type(statement.target) is ast.Name:
        end = (statement.end_lineno or statement.lineno, statement.end_col_offset or statement.col_offset)
        found.definitions.append((statement.target.id, *end, scope))


def _catches_import_error(clause: ast.AST) -> bool:
    """An `except ImportError:` / `except (ImportError, …):` / `except ModuleNotFoundError:` clause."""
    caught = getattr(clause, "type", None)
    names = caught.elts if type(caught) is ast.Tuple else [caught]
    return any(type(name) is ast.Name and name.id in ("ImportError", "ModuleNotFoundError") for name in names)


def file_aliases(tree: ast.Module, package: str = "") -> AliasTable:
    """The alias table of a parsed file, as the report's scan builds it (`migrate fix`'s renames use it too)."""
    statements = statement_pass(tree.body)
    return scoped_alias_table(statements.imports, statements, package)
