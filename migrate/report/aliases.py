"""Per-file alias table: which local name stands for which qualified name.

Built from every import in the file (any scope: a function-level
`import tensorflow as tf` counts), relative imports resolved against the
file's package, and simple re-bindings such as `flags = tf.flags` or
`tf = tf.compat.v1`. Names later re-bound by a `class` or `def` of the same
name are dropped, so a user class called `Estimator` is never TensorFlow's.
The table is flat (one scope per file): precise enough for migration advice,
and it keeps the scan a single pass.
"""
from __future__ import annotations

import ast
from typing import Iterable

from migrate.report.names import canonical, is_tensorflow


def dotted_parts(node: ast.AST) -> list[str] | None:
    """`a.b.c` → ["a", "b", "c"]; None for anything that is not a plain name chain."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    parts.reverse()
    return parts


def absolute_module(module: str | None, level: int, package: str) -> str | None:
    """The module an `ImportFrom` names, relative levels resolved against `package`."""
    if level == 0:
        return module
    base = package.split(".") if package else []
    if level - 1 > len(base):
        return None
    base = base[: len(base) - (level - 1)]
    if module:
        base.append(module)
    return ".".join(base) or None


class AliasTable:
    """Local name → fully qualified dotted name, for one file."""

    def __init__(self, package: str = "") -> None:
        self.package = package
        self.bindings: dict[str, str] = {}
        self.star_modules: list[str] = []

    def add_import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.bindings[alias.asname] = alias.name
            else:
                root = alias.name.partition(".")[0]
                self.bindings[root] = root

    def add_import_from(self, node: ast.ImportFrom) -> None:
        module = absolute_module(node.module, node.level, self.package)
        if module is None:
            return
        for alias in node.names:
            if alias.name == "*":
                self.star_modules.append(module)
                continue
            self.bindings[alias.asname or alias.name] = f"{module}.{alias.name}"

    def add_assignment(self, node: ast.Assign | ast.AnnAssign) -> bool:
        """Record `name = known.chain`; True if the table changed."""
        targets = _targets(node)
        if node.value is None:
            return False
        value = self.qualified(node.value)
        changed = False
        for target in targets:
            if isinstance(target, ast.Name) and value is not None and self.bindings.get(target.id) != value:
                self.bindings[target.id] = value
                changed = True
        return changed

    def forget(self, names: Iterable[str]) -> None:
        for name in names:
            self.bindings.pop(name, None)

    def qualified(self, node: ast.AST) -> str | None:
        """The dotted name a Name/Attribute chain stands for, if its root is bound."""
        parts = dotted_parts(node)
        if parts is None:
            return None
        bound = self.bindings.get(parts[0])
        if bound is None:
            return None
        return ".".join([bound, *parts[1:]])

    def tensorflow_name(self, node: ast.AST) -> str | None:
        """Canonical TensorFlow name of a chain (`tf.compat.v1.Session` → `tensorflow.Session`)."""
        qualified = self.qualified(node)
        if qualified is None or not is_tensorflow(qualified):
            return None
        return canonical(qualified)

    def binds_tensorflow(self) -> bool:
        return any(is_tensorflow(value) for value in self.bindings.values()) or any(
            is_tensorflow(module) for module in self.star_modules
        )


def build_alias_table(
    imports: list[ast.Import | ast.ImportFrom],
    assignments: list[ast.Assign | ast.AnnAssign],
    shadowing_names: Iterable[str],
    package: str,
) -> AliasTable:
    """Imports, minus module-level `class`/`def` names, then assignments to a fixpoint."""
    table = AliasTable(package)
    for node in sorted(imports, key=lambda node: (node.lineno, node.col_offset)):
        if isinstance(node, ast.Import):
            table.add_import(node)
        else:
            table.add_import_from(node)
    table.forget(shadowing_names)
    candidates = [node for node in assignments if _is_chain_assignment(node)]
    targets = {target.id for node in candidates for target in _targets(node) if isinstance(target, ast.Name)}
    candidates = [node for node in candidates if _root(node.value) in table.bindings or _root(node.value) in targets]
    for _ in range(3):
        if not any([table.add_assignment(node) for node in candidates]):
            break
    return table


def _is_chain_assignment(node: ast.Assign | ast.AnnAssign) -> bool:
    return node.value is not None and isinstance(node.value, (ast.Name, ast.Attribute))


def _targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def _root(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None
