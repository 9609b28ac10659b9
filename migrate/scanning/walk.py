"""Walking `ast` trees fast: per node type, the fields that can hold nodes, looked up once.

`ast.walk` and `ast.iter_child_nodes` find a node's children through
`ast.iter_fields` and an `isinstance` test per value, operators and `Load`
contexts included; the report walks every node of every file, and those two
cost several times what the walk needs. Here each type's node-holding fields
are computed once, and identifiers, flags, operators and contexts are skipped.
"""
from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Sequence

NO_NODES = frozenset({
    "ctx", "id", "attr", "arg", "name", "names", "module", "level", "conversion", "is_async", "kind",
    "type_comment", "rest", "tag", "simple", "kwd_attrs", "op", "ops",
})
"""Fields that never hold a node worth visiting: identifiers, flags, operators (`op`, `ops`) and contexts.
What remains holds nodes, lists of nodes, or None (`Dict.keys`, `kw_defaults`); `Constant.value` is the
one that holds plain values, which is why a walk checks what it pushes."""
_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}


def node_fields(kind: type[ast.AST]) -> tuple[str, ...]:
    """The fields of node type `kind` that can hold nodes, in `_fields` order."""
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = tuple(field for field in kind._fields if field not in NO_NODES)
    return fields


def descendants(root: ast.AST) -> list[ast.AST]:
    """`root` and every node below it, contexts, operators and import names (`alias`) left out, in no particular order."""
    found = []
    pending = [root]
    AST = ast.AST
    while pending:
        node = pending.pop()
        found.append(node)
        for field in node_fields(type(node)):
            value = getattr(node, field)
            if type(value) is list:
                pending.extend(item for item in value if item is not None)
            elif isinstance(value, AST):
                pending.append(value)
    return found


def descendants_on_lines(root: ast.AST, lines: Sequence[int]) -> list[ast.AST]:
    """`root` and the nodes below it whose lines take in one of `lines` (sorted), as `descendants` leaves them out.

    For a rewrite that knows which lines it touches (the lines spelling a renamed
    name, the lines it edited): a large module is entered only along those lines.
    A node without a position (`arguments`, `comprehension`, …) is entered; a
    definition's lines start at its first decorator; an f-string is taken whole
    (the positions of the expressions inside one are not to be trusted before
    Python 3.12).
    """
    found = []
    pending = [root]
    count = len(lines)
    while pending:
        node = pending.pop()
        first = getattr(node, "lineno", None)
        if first is not None:
            decorators = getattr(node, "decorator_list", None)
            if decorators:
                first = min(first, decorators[0].lineno)
            index = bisect_left(lines, first)
            if index == count or lines[index] > (getattr(node, "end_lineno", None) or first):
                continue
            if type(node) is ast.JoinedStr:
                found.extend(descendants(node))
                continue
        found.append(node)
        pending.extend(_children(node))
    return found


def _children(node: ast.AST) -> list[ast.AST]:
    """The nodes right below `node` (as `descendants` pushes them)."""
    return [child for field in node_fields(type(node)) for value in [getattr(node, field)]
            for child in (value if type(value) is list else [value]) if isinstance(child, ast.AST)]
