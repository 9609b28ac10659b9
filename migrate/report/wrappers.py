"""Functions that return a TensorFlow module, and the uses through them.

tensor2tensor's `contrib.slim()`, `contrib.eager()`: a top-level function
returning a TensorFlow module is a *wrapper*; `wrapper().attr` and
`name = wrapper()` are then TensorFlow names like any import. Another file's
wrappers are looked up while the caller is analysed (`migrate.report.wrapper_lookup`).
"""
from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Protocol

from migrate.report.context import Reference
from migrate.report.dispatch import resolve
from migrate.report.model import FileResult
from migrate.scanning.aliases import AliasTable, dotted_parts
from migrate.scanning.api_tree import is_module
from migrate.scanning.names import canonical, is_tensorflow


class WrapperSource(Protocol):
    """Other files' wrappers: `get(qualified function name)` → the TensorFlow module it returns, or None."""

    def get(self, qualified: str, /) -> str | None: ...


class KnownWrappers:
    """The wrappers a file may call: its own (qualified name → module), then other files' (`others`)."""

    __slots__ = ("own", "others")

    def __init__(self, own: Mapping[str, str], others: WrapperSource | None) -> None:
        self.own = own
        self.others = others

    def get(self, qualified: str, /) -> str | None:
        found = self.own.get(qualified)
        if found is None and self.others is not None:
            return self.others.get(qualified)
        return found


def wrapper_functions(aliases: AliasTable, returns: Mapping[ast.FunctionDef, list[ast.Return]]) -> dict[str, str]:
    """Top-level functions that return a TensorFlow module (`def slim(): from tensorflow.contrib
    import slim; return slim`): name → the module's qualified name.

    Any `return` of the function counts, nested functions and classes excluded
    (`returns`, from the statement pre-pass: only the functions that have such a `return` are looked at,
    in source order, not every statement of the module): a wrapper may return the TF1
    module on one path only (tensor2tensor's `def opt(): if not is_tf2: from
    tensorflow.contrib import opt; return opt` then `return DummyModule(...)`),
    and that path is the one the TF1 code runs. The first one in source order wins.
    """
    wrappers = {}
    for node, candidates in sorted(returns.items(), key=_function_position) if len(returns) > 1 else returns.items():
        for returned in sorted(candidates, key=_position) if len(candidates) > 1 else candidates:
            parts = dotted_parts(returned.value) if returned.value is not None else None
            if parts is None:
                continue
            bound = aliases.lookup(parts[0], returned.lineno, returned.col_offset)
            if bound is not None and is_tensorflow(bound):
                target = ".".join([bound, *parts[1:]])
                if is_module(canonical(target)):
                    wrappers[node.name] = target
                    break
    return wrappers


def wrapper_results(
    calls: list[ast.Assign], aliases: AliasTable, result: FileResult, wrappers: WrapperSource
) -> list[tuple[ast.ImportFrom, ast.Assign]]:
    """`tfe = contrib.eager()` (tensor2tensor's contrib module): for a known wrapper function, an import of the
    module it returns, standing where the assignment stands. `calls`: the assignments of a call without
    arguments (`migrate.scanning.statements.Statements.calls`)."""
    bindings = []
    for assignment in calls:
        value = assignment.value
        if type(value) is not ast.Call or len(assignment.targets) != 1 or type(assignment.targets[0]) is not ast.Name:
            continue
        qualified = _called_name(value.func, aliases, result)
        if qualified is None:
            continue
        target = wrappers.get(qualified)
        if target is None:
            continue
        module, _, name = target.rpartition(".")
        synthetic = ast.ImportFrom(module=module, names=[ast.alias(name=name, asname=assignment.targets[0].id)], level=0)
        ast.copy_location(synthetic, assignment)
        bindings.append((synthetic, assignment))
    return bindings


def _called_name(func: ast.expr, aliases: AliasTable, result: FileResult) -> str | None:
    """The qualified name of a called function that may be a wrapper: this file's own, or another's that is not
    TensorFlow's; None for anything else."""
    parts = dotted_parts(func)
    if parts is None:
        return None
    if len(parts) == 1 and parts[0] in result.wrappers:
        return f"{result.module}.{parts[0]}"
    qualified = aliases.qualified(func)
    return None if qualified is None or is_tensorflow(qualified) else qualified


def _position(node: ast.stmt) -> tuple[int, int]:
    return node.lineno, node.col_offset


def _function_position(item: tuple[ast.FunctionDef, list[ast.Return]]) -> tuple[int, int]:
    return _position(item[0])


def wrapper_references(on_calls: list, aliases: AliasTable, result: FileResult, wrappers: WrapperSource) -> list:
    """`helpers.slim().arg_scope(...)`: References through functions returning TensorFlow modules."""
    references = []
    for node, call, outer in on_calls:
        if call.args or call.keywords:
            continue
        parts = dotted_parts(call.func)
        qualified = _called_name(call.func, aliases, result)
        if parts is None or qualified is None:
            continue
        target = wrappers.get(qualified)
        if target is None:
            continue
        attributes = _attributes_on(node, call)
        if attributes is None:
            continue
        resolved = resolve(".".join([target, *attributes]))
        if resolved is not None:
            spelling = ".".join([*parts]) + "()" + "".join(f".{attribute}" for attribute in attributes)
            references.append((Reference(node, resolved[0], spelling, outer, None), resolved[1]))
    return references


def _attributes_on(node: ast.AST, call: ast.Call) -> list[str] | None:
    """`f().a.b` → ["a", "b"] (the attributes taken on `call`'s result)."""
    attributes = []
    while type(node) is ast.Attribute:
        attributes.append(node.attr)
        node = node.value
    return list(reversed(attributes)) if node is call else None


