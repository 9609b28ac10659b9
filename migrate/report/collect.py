"""One explicit-stack walk of a file's expressions: what the checks need from the tree.

The hot loop of the report (every node of every file that binds a TensorFlow
name goes through it): the nodes some check is registered for and every maximal
name chain rooted in a TensorFlow alias (`tf.compat.v1.train.Saver`, never its
inner `tf.compat.v1`). It dispatches on `type(node)` with the commonest kinds
inlined, and pushes no leaf it would only pop again.
"""
from __future__ import annotations

import ast
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from migrate.report.dispatch import KEYS_OF
from migrate.report.registry import CHECKS
from migrate.scanning.walk import node_fields

_LEAVES = frozenset({
    ast.Constant, ast.Load, ast.Store, ast.Del, ast.alias, ast.Pass, ast.Break, ast.Continue,
    ast.Global, ast.Nonlocal, ast.MatchSingleton, ast.Import, ast.ImportFrom,
})
_PLANS: dict[type, tuple[tuple[str, ...], bool]] = {}
ChainVisitor = Callable[[ast.AST, ast.Call | None], None]
"""`_chain_visitor`'s `chain(node, call)`."""
_HOLDERS = frozenset({ast.Assign, ast.Expr})
"""The commonest statements after calls (tensor2tensor: 27k assignments, 11k expression statements), walked inline."""


class Collected(NamedTuple):
    """What the walk of one file found (`collect`)."""

    interesting: list[ast.AST]
    """Nodes some check is registered for: by type, `.attr`, `arg=`, or the `Call` of a `.method()`. Not imports:
    the statement pre-pass lists them all (`Statements.imports`), and the analysis dispatches them from there."""
    chains: list[tuple[ast.expr, ast.Call | None]]
    """Every maximal Load chain rooted in a TensorFlow alias, with the `Call` that calls it (if any)."""
    on_calls: list[tuple[ast.AST, ast.Call, ast.Call | None]]
    """Chains on a call's result (`helpers.slim().arg_scope`: the chain, that call, the call of the chain)."""
    class_calls: list[ast.Call]
    """Calls of `CamelCase` names rooted in the class roots (`MyHook(...)`)."""


def collect(tree: ast.Module, roots: frozenset[str], class_roots: frozenset[str] = frozenset()) -> Collected:
    """One explicit-stack walk: the nodes checks registered for and every maximal Load name chain rooted in a
    TensorFlow alias, and the rest `Collected` lists. A pure chain (`a.b.c`) is consumed whole: its inner `a.b` and
    `a` are not visited, so only maximal chains are seen and nothing is resolved twice."""
    keys = _wanted()
    stack: list[ast.AST] = [tree]
    found = Collected([], [], [], [])
    _walk(stack, found, _chain_visitor(found, stack.append, roots, class_roots, keys.attributes, keys.methods), roots, keys)
    return found


def _walk(stack: list[ast.AST], found: Collected, chain: ChainVisitor, roots: frozenset[str], keys: _Keys) -> None:
    """`collect`'s loop: pop a node, record what it is for, push what it holds (every name a local, for speed)."""
    pop, push = stack.pop, stack.append
    interesting, chains, on_calls, _ = found
    wanted, attributes, keywords, _, barren, holders, plain_arguments = keys
    Name, Attribute, Call, Load, keyword, Arguments = ast.Name, ast.Attribute, ast.Call, ast.Load, ast.keyword, ast.arguments
    plans = _PLANS
    while stack:
        node = pop()
        kind = type(node)
        if kind is Name:
            if node.id in roots and type(node.ctx) is Load:
                chains.append((node, None))
            continue
        if kind is Attribute:  # chain(node, None), inlined: the hottest path; `tf.flags.FLAGS.x = 1` uses tf.flags.FLAGS
            base = node
            while type(base) is Attribute:
                if base.attr in attributes:
                    interesting.append(base)
                base = base.value
            if type(base) is Name:
                if base.id in roots:
                    chains.append((node if type(node.ctx) is Load else node.value, None))
            else:
                if type(base) is Call:
                    on_calls.append((node, base, None))
                push(base)
            continue
        if kind is Call:  # the plan of a call, inlined (a Call is collected by `.method()` only: `KEYS_OF`)
            func = node.func
            if type(func) is Name or type(func) is Attribute:
                chain(func, node)
            elif type(func) not in barren:
                push(func)
            for item in node.args:
                if type(item) not in barren:
                    push(item)
            for item in node.keywords:
                push(item)
            continue
        if kind is keyword:  # the plan of a keyword, inlined: its value is all it holds
            if node.arg in keywords:
                interesting.append(node)
            if type(node.value) not in barren:
                push(node.value)
            continue
        if kind in holders:  # `x = value`, `call()`: a target that is a plain name stores, so it is no chain
            for target in node.targets if kind is ast.Assign else ():
                if type(target) is not Name:
                    push(target)
            if type(node.value) not in barren:
                push(node.value)
            continue
        if kind is Arguments and plain_arguments:
            _push_parameters(node, push, barren)
            continue
        plan = plans.get(kind)
        if plan is None:
            plan = plans[kind] = _plan(kind, wanted)
        fields, collected = plan
        if collected:
            interesting.append(node)
        for field in fields:
            value = getattr(node, field)
            if type(value) is list:
                for item in value:
                    if item is not None and type(item) not in barren:
                        push(item)
            elif value is not None and type(value) not in barren:
                push(value)


def _chain_visitor(
    found: Collected, push: Callable[[ast.AST], None], roots: frozenset[str], class_roots: frozenset[str],
    attributes: frozenset[str], methods: frozenset[str],
) -> ChainVisitor:
    """`chain(node, call)`: what `collect` records of a called name or chain (`call` the `Call`), and the
    base it pushes when the chain does not start at a name (`f().a`, `x[0].b`)."""
    interesting, chains, on_calls, class_calls = found
    Name, Attribute, Call, Load = ast.Name, ast.Attribute, ast.Call, ast.Load

    def chain(node: ast.AST, call: ast.Call | None) -> None:
        if call is not None and type(node) is Attribute and node.attr in methods:
            interesting.append(call)
        base = node
        while type(base) is Attribute:
            if base.attr in attributes:
                interesting.append(base)
            base = base.value
        if type(base) is Name:
            if base.id in roots and type(node.ctx) is Load:
                chains.append((node, call))
            elif call is not None and base.id in class_roots:
                called = node.attr if type(node) is Attribute else node.id
                if called[:1].isupper():
                    class_calls.append(call)
        else:
            if type(base) is Call and base is not node:
                on_calls.append((node, base, call))
            push(base)

    return chain


def _push_parameters(node: ast.arguments, push: Callable[[ast.AST], None], barren: frozenset[type]) -> None:
    """What a parameter list holds that the walk descends into: annotations and defaults."""
    for value in (node.posonlyargs, node.args, node.vararg, node.kwonlyargs, node.kw_defaults, node.kwarg, node.defaults):
        for item in value if type(value) is list else (value,):
            if type(item) is ast.arg:
                item = item.annotation
            if item is not None and type(item) not in barren:
                push(item)


def _plan(kind: type, wanted: frozenset[type]) -> tuple[tuple[str, ...], bool]:
    """How `collect` treats a node type it does not handle inline: the fields to descend into,
    and whether to collect the node (some check is registered for its type) — one dict lookup per node."""
    fields = () if kind in _LEAVES else node_fields(kind)
    return fields, kind in wanted


class _Keys(NamedTuple):
    """What the registered checks make `collect` look for, and what that leaves it free to skip."""

    types: frozenset[type]
    """Node types some check is registered for, imports left out (`Collected.interesting` says why)."""
    attributes: frozenset[str]
    keywords: frozenset[str]
    methods: frozenset[str]
    """Attribute names, keyword names and called method names (`".run()"`) some check is registered for."""
    barren: frozenset[type]
    """Leaves no check wants: never collected, no children, so never even pushed."""
    holders: frozenset[type]
    """`_HOLDERS` no check wants: walked inline."""
    plain_arguments: bool
    """No check wants parameter lists or parameters: only their annotations and defaults are walked."""


@lru_cache(maxsize=1)
def _wanted() -> _Keys:
    """The keys of the registered checks (`CHECKS`), derived once."""
    types = frozenset(
        key for key in CHECKS
        if isinstance(key, type) and issubclass(key, ast.AST) and key not in KEYS_OF and key not in (ast.Import, ast.ImportFrom)
    )
    strings = [key for key in CHECKS if isinstance(key, str)]
    attributes = frozenset(key[1:] for key in strings if key.startswith(".") and not key.endswith("()"))
    keywords = frozenset(key[:-1] for key in strings if key.endswith("="))
    called = frozenset(key[1:-2] for key in strings if key.startswith(".") and key.endswith("()"))
    plain_arguments = ast.arguments not in types and ast.arg not in types
    return _Keys(types, attributes, keywords, called, _LEAVES - types, _HOLDERS - types, plain_arguments)
