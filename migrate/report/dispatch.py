"""From what the walk collected to the checks to run: registry keys, `Reference`s, resolution.

A node is dispatched by `type(node)`, or by the keys derived from it
(`.attr`, `arg=`, `.method()`); a chain rooted in a TensorFlow alias becomes a
`Reference` to its canonical name when some check is registered for that name
or a namespace above it (`dispatch_keys`).
"""
from __future__ import annotations

import ast
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from migrate.report.context import Reference, as_reference
from migrate.report.registry import CHECKS
from migrate.scanning.aliases import AliasTable, Binding, absolute_module
from migrate.scanning.api_tree import is_module
from migrate.scanning.names import canonical, is_tensorflow


@lru_cache(maxsize=8192)
def dispatch_keys(name: str) -> tuple[str, ...]:
    """`a.b.c` → ("a.b.c", "a.b.*", "a.*"): the registry keys a reference is dispatched under."""
    keys = [name]
    while "." in name:
        name = name.rpartition(".")[0]
        keys.append(f"{name}.*")
    return tuple(keys)


KEYS_OF: dict[type, Callable[[Any], tuple[str, ...]]] = {
    Reference: lambda reference: dispatch_keys(reference.name),
    ast.Attribute: lambda node: (f".{node.attr}",),
    ast.keyword: lambda node: (f"{node.arg}=",),
    ast.Call: lambda node: (f".{node.func.attr}()",),
}
"""Only calls of a method some check is registered for (`".run()"`) are collected, so a `Call` is keyed by that."""


def checks_for(node) -> list:
    """The registered checks for a node: by `type(node)`, or by the keys derived from it (HookClass too)."""
    key_of = KEYS_OF.get(type(node))
    if key_of is None:
        return CHECKS.get(type(node), [])
    return [entry for key in key_of(node) for entry in CHECKS.get(key, ())]


def references(chains: list[tuple[ast.expr, ast.Call | None]], aliases: AliasTable):
    """The chains some check is registered for, as `Reference`s with those checks; and the
    uses of bindings some rule may flag (binding, its Reference or None)."""
    references = []
    uses: list[tuple[Binding, Reference | None]] = []
    history = aliases.history
    simple = {name: bindings[0] for name, bindings in history.items() if len(bindings) == 1 and bindings[0].scope is None}
    flaggable: dict[int, bool] = {}
    Attribute, Name = ast.Attribute, ast.Name
    binding_of = aliases.binding
    for node, call in chains:
        if type(node) is Name:
            root, path = node.id, ""
        elif type(node) is Attribute and type(node.value) is Name:  # `tf.reduce_sum`: 10,174 of 13,249 chains
            root, path = node.value.id, node.attr
        else:
            attributes = []
            base = node
            while type(base) is Attribute:
                attributes.append(base.attr)
                base = base.value
            if type(base) is not Name:
                continue
            attributes.reverse()
            root, path = base.id, ".".join(attributes)
        binding = simple.get(root) or binding_of(root, node.lineno, node.col_offset)
        if binding is None:
            continue
        value = binding.value
        if value is None:
            if binding.origin is not None:
                uses.append((binding, None))
            continue
        qualified = f"{value}.{path}" if path else value
        resolved = resolve(qualified)
        reference = None
        if resolved is not None:
            name, checks = resolved
            reference = as_reference((node, name, f"{root}.{path}" if path else root, call, qualified))
            references.append((reference, checks))
        if binding.node is not None and node is not binding.node:
            key = id(binding)
            foldable = flaggable.get(key)
            if foldable is None:  # only a binding whose own name some rule is about can be flagged
                foldable = flaggable[key] = resolve(value) is not None
            if foldable:
                uses.append((binding, reference))
    return references, uses


def import_references(imports: list, aliases: AliasTable) -> list[tuple[Reference, tuple]]:
    """An import of a TensorFlow module some rule is about is a reference too, at the import: the uses
    of the name it binds are then covered by that one finding (a class or function imported is
    reported where it is used, each use being a change)."""
    references = []
    for node in imports:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            module = absolute_module(node.module, node.level, aliases.package)
            if module is None or not is_tensorflow(module):
                continue  # `from __future__ import …`, the project's own modules: no name in it resolves
            names = [f"{module}.{alias.name}" for alias in node.names if alias.name != "*"]
        for name in names:
            resolved = resolve(name)
            if resolved is not None and is_module(resolved[0]):
                references.append((Reference(node, resolved[0], name, None, name), resolved[1]))
    return references


@lru_cache(maxsize=65536)
def resolve(qualified: str) -> tuple[str, tuple] | None:
    """(canonical name, its checks) for a qualified TensorFlow name with checks; else None.

    Cached per process: TensorFlow's own code mentions thousands of internal
    names no rule is about, and each is resolved once.
    """
    if not is_tensorflow(qualified):
        return None
    name = canonical(qualified)
    checks = tuple(entry for key in dispatch_keys(name) for entry in CHECKS.get(key, ()))
    if any(rule.fallback for rule, _ in checks):  # after the others: the analysis skips a fallback its line has covered
        checks = tuple(sorted(checks, key=lambda entry: entry[0].fallback))
    return (name, checks) if checks else None


