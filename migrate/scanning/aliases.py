"""Per-file alias table: which local name stands for which qualified name, where.

Built from every import in the file (any scope: a function-level
`import tensorflow as tf` counts), relative imports resolved against the
file's package, and re-bindings such as `flags = tf.flags` or
`tf = tf.compat.v1`. The table is ordered and scoped: each binding holds from
its statement on, within the function or class it is in (module bindings are
seen from functions defined earlier too, as at call time), so a later
`flags = tf.flags` wins over `from absl import flags` only from that point.

Only a chain that ends in a module or a class binds an alias
(`migrate.scanning.api_tree.binds_alias`): `FLAGS = tf.flags.FLAGS` binds a
*value*, and so does `n = FLAGS.steps`; their uses are not TensorFlow names.
A `class`/`def`, a parameter or any other assignment of the same name
re-binds it to something that is not TensorFlow.
"""
from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from itertools import chain, compress
from operator import attrgetter, itemgetter
from typing import NamedTuple, Protocol

from migrate.scanning.api_tree import binds_alias
from migrate.scanning.names import canonical, is_tensorflow


def dotted_parts(node: ast.AST) -> list[str] | None:
    """`a.b.c` → ["a", "b", "c"]; None for anything that is not a plain name chain."""
    parts: list[str] = []
    while type(node) is ast.Attribute:  # `type() is`, not isinstance: called for every chain, and ast classes have no subclasses
        parts.append(node.attr)
        node = node.value
    if type(node) is not ast.Name:
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


Scope = tuple[int, int] | None
"""(first line, last line) of the function or class a binding is in; None for the module."""


class Binding(NamedTuple):
    """`name` bound at (line, column) — the end of the binding statement — in `scope`.

    `value` is the qualified name when the binding is an alias, else None; `origin`
    the TensorFlow name a value binding came from (`FLAGS = tf.flags.FLAGS`);
    `node` the expression bound (a chain) or the import statement.
    """

    name: str
    value: str | None
    line: int
    column: int
    scope: Scope = None
    node: ast.AST | None = None
    origin: str | None = None


_new_binding = tuple.__new__
"""`Binding`'s tuple made without the Python-level `__new__` a NamedTuple's constructor runs (`_bind_import`)."""


class AliasTable:
    """Local name → fully qualified dotted name, for one file, by position."""

    def __init__(self, package: str = "") -> None:
        self.package = package
        self.bindings: dict[str, str] = {}
        """Module-level aliases as the module ends: what other modules import from it."""
        self.star_modules: list[str] = []
        self.history: dict[str, list[Binding]] = {}
        self._tensorflow_names: set[str] = set()
        """The names some binding of `history` gives a TensorFlow value or origin (`roots`), kept as they are bound."""

    def bind(self, binding: Binding) -> None:
        name, value = binding.name, binding.value
        self.history.setdefault(name, []).append(binding)
        if binding.scope is None:
            if value is None:
                self.bindings.pop(name, None)
            else:
                self.bindings[name] = value
        if binding.origin or (value and is_tensorflow(value)):
            self._tensorflow_names.add(name)

    def add_import(self, node: ast.Import, scope: Scope = None, end: tuple[int, int] | None = None) -> None:
        """`import a.b` binds `a`; `import a.b as c` binds `c` to `a.b`. `end`: the statement's end, when known."""
        line, column = end or _end(node)
        for alias in node.names:
            if alias.asname:
                self._bind_import(alias.asname, alias.name, node, line, column, scope)
            else:
                root = alias.name.partition(".")[0]
                self._bind_import(root, root, node, line, column, scope)

    def add_import_from(self, node: ast.ImportFrom, scope: Scope = None, end: tuple[int, int] | None = None) -> None:
        """`from m import a as b` binds `b` to `m.a` (relative `m` resolved); `from m import *` is remembered."""
        module = absolute_module(node.module, node.level, self.package)
        if module is None:
            return
        line, column = end or _end(node)
        for alias in node.names:
            name = alias.name
            if name == "*":
                self.star_modules.append(module)
                continue
            self._bind_import(alias.asname or name, f"{module}.{name}", node, line, column, scope)

    def _bind_import(self, name: str, value: str, node: ast.stmt, line: int, column: int, scope: Scope) -> None:
        """`bind` for an import (2 in 3 bindings on tensor2tensor): its value is never None, its origin always."""
        self.history.setdefault(name, []).append(_new_binding(Binding, (name, value, line, column, scope, node, None)))
        if scope is None:
            self.bindings[name] = value
        if is_tensorflow(value):
            self._tensorflow_names.add(name)

    def add_assignment(self, node: ast.Assign | ast.AnnAssign, scope: Scope = None) -> None:
        """Record `name = chain` as of its position: an alias, a value, or a re-binding."""
        value_node = node.value
        value = self.qualified(value_node) if value_node is not None else None
        origin = None
        if value is not None and is_tensorflow(value):
            name = canonical(value)
            if not binds_alias(name):
                value, origin = None, name
        line, column = _end(node)
        for target in _targets(node):
            if isinstance(target, ast.Name):
                self.bind(Binding(target.id, value, line, column, scope, value_node, origin))

    def rebind(self, name: str, line: int, column: int, scope: Scope = None) -> None:
        """`name` now holds something that is not an alias (a class, a function, a parameter, a value)."""
        self.bind(Binding(name, None, line, column, scope))

    def forget(self, names: Iterable[str]) -> None:
        for name in names:
            self._tensorflow_names.discard(name)
            self.bindings.pop(name, None)
            self.history.pop(name, None)

    def binding(self, name: str, line: int, column: int = 0) -> Binding | None:
        """The binding of `name` in force at (line, column): the innermost scope's latest one before it."""
        history = self.history.get(name)
        if not history:
            return None
        if len(history) == 1 and history[0].scope is None:
            return history[0]
        best: Binding | None = None
        best_key: tuple = ()
        for binding in history:
            scope = binding.scope
            if scope is not None and not (scope[0] <= line <= scope[1]):
                continue
            before = (binding.line, binding.column) <= (line, column)
            if scope is not None and not before:
                continue
            # innermost scope first, then bindings before the use (latest first), then module hoisting (earliest first)
            key = (scope[0] if scope else -1, before, (binding.line, binding.column) if before else (-binding.line, -binding.column))
            if best is None or key > best_key:
                best, best_key = binding, key
        return best

    def lookup(self, name: str, line: int, column: int = 0) -> str | None:
        binding = self.binding(name, line, column)
        return binding.value if binding is not None else None

    def qualified(self, node: ast.AST) -> str | None:
        """The dotted name a Name/Attribute chain stands for where it is, if its root is bound."""
        parts = dotted_parts(node)
        if parts is None:
            return None
        bound = self.lookup(parts[0], getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        if bound is None:
            return None
        return ".".join([bound, *parts[1:]])

    def tensorflow_name(self, node: ast.AST) -> str | None:
        """Canonical TensorFlow name of a chain (`tf.compat.v1.Session` → `tensorflow.Session`)."""
        qualified = self.qualified(node)
        if qualified is None or not is_tensorflow(qualified):
            return None
        return canonical(qualified)

    def roots(self) -> frozenset[str]:
        """Names that stand for TensorFlow somewhere in the file (an alias or a value from it)."""
        return frozenset(self._tensorflow_names)

    def binds_tensorflow(self) -> bool:
        return bool(self.roots()) or any(is_tensorflow(module) for module in self.star_modules)


class BindingStatements(Protocol):
    """The statements an alias table is built from, sorted by what they may bind (`migrate.scanning.statements`)."""

    @property
    def scopes(self) -> dict[int, Scope]: ...
    @property
    def chains(self) -> list[ast.Assign | ast.AnnAssign]: ...
    @property
    def plain(self) -> list[ast.Assign]: ...
    @property
    def plain_scopes(self) -> list[Scope]: ...
    @property
    def definitions(self) -> list[tuple[str, int, int, Scope]]: ...
    @property
    def functions(self) -> list[ast.FunctionDef | ast.AsyncFunctionDef]: ...


class _Sorted(NamedTuple):
    scopes: dict[int, Scope]
    chains: list[ast.Assign | ast.AnnAssign]
    plain: list[ast.Assign]
    plain_scopes: list[Scope]
    definitions: list[tuple[str, int, int, Scope]]
    functions: list[ast.FunctionDef | ast.AsyncFunctionDef]


def build_alias_table(
    imports: list[ast.Import | ast.ImportFrom],
    assignments: list[ast.Assign | ast.AnnAssign],
    shadowing_names: Iterable[str],
    package: str,
) -> AliasTable:
    """The table of module-level statements (no scopes): imports and chain assignments in source order, every
    other assignment and the `shadowing_names` (module-level `class`/`def` names) re-binding names."""
    chains: list[ast.Assign | ast.AnnAssign] = []
    plain: list[ast.Assign] = []
    definitions: list[tuple[str, int, int, Scope]] = []
    for node in assignments:
        value = node.value
        if type(value) is ast.Name or type(value) is ast.Attribute:
            chains.append(node)
        elif type(node) is ast.Assign:
            plain.append(node)
        elif value is not None and type(node.target) is ast.Name:
            definitions.append((node.target.id, *_end(node), None))
    table = scoped_alias_table(imports, _Sorted({}, chains, plain, [None] * len(plain), definitions, []), package)
    table.forget(shadowing_names)
    return table


def scoped_alias_table(
    imports: list[ast.Import | ast.ImportFrom], statements: BindingStatements, package: str
) -> AliasTable:
    """Imports and chain assignments in source order, each in its scope (`statements.scopes`: id(statement) →
    scope), and the re-bindings of the names they bind: by other assignments, definitions and parameters.

    Only names that may stand for something imported are followed (`_aliased`): a re-binding of any other
    name would only replace one binding without a value by another.
    """
    scopes = statements.scopes
    table = AliasTable(package)
    events: list[tuple[tuple[int, int], int, object]] = []
    imported: set[str] = set()
    for node in imports:
        events.append((_end(node), 0, node))
        if type(node) is ast.Import:
            for alias in node.names:
                imported.add(alias.asname or alias.name.partition(".")[0])
        else:
            for alias in node.names:
                imported.add(alias.asname or alias.name)
    chains = _chain_targets(statements.chains)
    tracked = imported.union(*(targets for _, _, targets in chains))
    events += [(_end(node), 1, node) for node, root, _ in chains if root in tracked]
    events += _rebinding_events(statements, _aliased(imported, chains) if chains else imported)
    events.sort(key=itemgetter(0))
    for end, kind, item in events:
        if kind == 0:
            if type(item) is ast.Import:
                table.add_import(item, scopes.get(id(item)), end)
            else:
                table.add_import_from(item, scopes.get(id(item)), end)
        elif kind == 1:
            table.add_assignment(item, scopes.get(id(item)))
        else:
            name, scope = item
            table.rebind(name, *end, scope)
    return table


def _chain_targets(chains: list[ast.Assign | ast.AnnAssign]) -> list[tuple[ast.Assign | ast.AnnAssign, str | None, list[str]]]:
    """(assignment, the root name of its chain, the names it binds) of each chain assignment."""
    found = []
    for node in chains:
        targets = node.targets if type(node) is ast.Assign else [node.target]
        found.append((node, _root(node.value), [target.id for target in targets if type(target) is ast.Name]))
    return found


def _aliased(imported: set[str], chains: list[tuple[ast.AST, str | None, list[str]]]) -> set[str]:
    """The names an import binds, and the targets of chains from those (`flags = tf.flags`), transitively.

    Any other name only ever holds something without a value here (a chain from a name nothing imported), so
    its re-bindings need no events: the lookups that find one of its bindings find no value either way."""
    aliased = set(imported)
    from_root: dict[str | None, list[str]] = {}
    for _, root, targets in chains:
        from_root.setdefault(root, []).extend(targets)
    pending = [root for root in from_root if root in aliased]
    while pending:
        for name in from_root.get(pending.pop(), ()):
            if name not in aliased:
                aliased.add(name)
                pending.append(name)
    return aliased


def _rebinding_events(statements: BindingStatements, aliased: set[str]) -> list[tuple[tuple[int, int], int, object]]:
    """(where, 2, (name, scope)) for each re-binding of an `aliased` name: by an assignment of something other
    than a chain, a def or class, or a function's parameter (inside that function).

    Few files re-bind such a name, so each kind is first checked as a whole at C speed (`map`, `attrgetter`,
    `set.isdisjoint`; tensor2tensor's 24,600 plain assignments and 6,600 functions) and walked in Python only
    when it does."""
    events: list[tuple[tuple[int, int], int, object]] = []
    plain = statements.plain
    if plain and _may_rebind(plain, aliased):
        for node, scope in zip(plain, statements.plain_scopes):
            for target in node.targets:
                for name in _bound_names(target):
                    if name in aliased:
                        events.append((_end(node), 2, (name, scope)))
    definitions = statements.definitions
    if not aliased.isdisjoint(map(itemgetter(0), definitions)):
        events += [((line, column), 2, (name, scope)) for name, line, column, scope in definitions if name in aliased]
    functions = statements.functions
    if functions and not aliased.isdisjoint(_parameter_names(functions)):
        for function in functions:
            arguments = function.args
            where = (function.lineno, function.col_offset)
            inner = (function.lineno, function.end_lineno or function.lineno)
            for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg):
                if argument is not None and argument.arg in aliased:
                    events.append((where, 2, (argument.arg, inner)))
    return events


_NAME = frozenset({ast.Name})
_UNPACKING = frozenset({ast.Tuple, ast.List})
_NESTED_TARGET = frozenset({ast.Tuple, ast.List, ast.Starred})


def _may_rebind(plain: list[ast.Assign], aliased: set[str]) -> bool:
    """Whether some target of `plain` may bind an `aliased` name: a name target that is one, or an unpacking
    one holding one or a starred or nested target. (Names are picked by type, not by `getattr(target, "id",
    None)`: the exception each `x.y = ...` target would raise inside it cost 27 M instructions on tensor2tensor.)"""
    targets = list(chain.from_iterable(map(attrgetter("targets"), plain)))
    kinds = list(map(type, targets))
    if not aliased.isdisjoint(map(attrgetter("id"), compress(targets, map(_NAME.__contains__, kinds)))):
        return True
    unpacked = list(chain.from_iterable(map(attrgetter("elts"), compress(targets, map(_UNPACKING.__contains__, kinds)))))
    if not unpacked:
        return False
    kinds = list(map(type, unpacked))
    if not _NESTED_TARGET.isdisjoint(kinds):
        return True
    return not aliased.isdisjoint(map(attrgetter("id"), compress(unpacked, map(_NAME.__contains__, kinds))))


def _parameter_names(functions: list[ast.FunctionDef | ast.AsyncFunctionDef]) -> Iterator[str]:
    """The names of every parameter of `functions` (all kinds), without a Python loop per function."""
    signatures = list(map(attrgetter("args"), functions))
    listed = chain.from_iterable(
        chain.from_iterable(map(attrgetter(field), signatures)) for field in ("posonlyargs", "args", "kwonlyargs")
    )
    starred = filter(None, chain(map(attrgetter("vararg"), signatures), map(attrgetter("kwarg"), signatures)))
    return map(attrgetter("arg"), chain(listed, starred))


def _end(node: ast.stmt) -> tuple[int, int]:
    return (node.end_lineno or node.lineno, node.end_col_offset or node.col_offset)


def _bound_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _bound_names(element)]
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    return []


def _targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def _root(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None
