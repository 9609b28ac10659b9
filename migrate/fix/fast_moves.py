"""The module moves (tf.logging, tf.flags, tf.app → absl) without LibCST, for the common shape of a file.

Most files that use a moved module spell it out at each use (`tf.logging.info(...)`,
`tf.compat.v1.flags.DEFINE_string(...)`). For those, the rewrite is a few byte-span
edits on Python's own AST — the module part of each chain replaced by the absl name,
the old `DEFINE_*` keywords renamed, `main` passed to `app.run` — and one import line;
LibCST's scope analysis (`migrate.fix.module_moves`, ~100× the cost of `ast.parse`) is
needed only for the rest: a file that *binds* a moved module (`from tensorflow.compat.v1
import flags`, `flags = tf.flags`), merges into a parenthesised absl import, or splits a
chain over lines. `move_modules_fast` returns None for those, and the caller falls back.

Each use is vetted by the same `decide` functions (`migrate/fix/rules/`), through a `Use`
with the interface of `module_moves.Use`, and the output is the one LibCST would write
(the engine's tests run both paths).
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

from migrate.fix.edits import Edit, Layout, apply_edits
from migrate.fix.registry import Fix, ModuleMove, module_leaves
from migrate.fix.renames import match_lines, match_starts, physical_lines
from migrate.fix.result import Declined, FixResult
from migrate.scanning.aliases import AliasTable, Binding, dotted_parts
from migrate.scanning.names import canonical, is_tensorflow
from migrate.scanning.statements import file_aliases
from migrate.scanning.walk import descendants, descendants_on_lines, node_fields


def spells_a_moved_module(text: str, fixes: dict[str, Fix]) -> bool:
    """Whether `text` spells the last name of a module `fixes` move (else it has no module move to make)."""
    return next(match_starts(text, _spelled_leaves(fixes), not_after=""), None) is not None


def _spelled_leaves(fixes: dict[str, Fix]) -> re.Pattern[str]:
    """`(app|flags|logging|tf_logging)\b` (a whole word: `match_lines`' `not_after`): how every moved module
    is spelled at its end."""
    return _leaf_pattern(tuple(sorted(module_leaves(fixes))))


@lru_cache(maxsize=8)
def _leaf_pattern(leaves: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("(" + "|".join(map(re.escape, leaves)) + r")\b")


def _canonical_module(name: str) -> str:
    return canonical(name + ".member").rpartition(".")[0]


class _Resolver:
    """What the chains of one module stand for, and their parents."""

    def __init__(self, tree: ast.Module, text: str, fixes: dict[str, Fix], aliases: AliasTable | None = None) -> None:
        self.tree, self.text = tree, text
        self.aliases: AliasTable = file_aliases(tree) if aliases is None else aliases
        self.moves: dict[str, tuple[ModuleMove, str]] = {
            move.source: (move, fix.code) for fix in fixes.values() for move in fix.moves
        }
        self.parents: dict[int, ast.AST] = {}
        """id(Attribute or keyword) → its parent: all a `Use` asks of the tree's shape."""
        self.attributes: list[ast.Attribute] = []
        """Every `Load` attribute, in walk order (one walk fills both); when no name is bound to a moved
        module, only those on the lines that spell one (no other line can use one)."""
        nodes = descendants(tree) if self.moved_module_bindings() else \
            descendants_on_lines(tree, match_lines(text, _spelled_leaves(fixes), not_after=""))
        Attribute, keyword, Load = ast.Attribute, ast.keyword, ast.Load
        for node in nodes:  # `ast.iter_child_nodes`' order, through the fields that can hold nodes only (`node_fields`)
            for field in node_fields(type(node)):
                value = getattr(node, field)
                for child in value if type(value) is list else (value,):
                    if type(child) is Attribute:  # as fast as one type() kept in a local, and mypy narrows it
                        self.parents[id(child)] = node
                        if type(child.ctx) is Load:
                            self.attributes.append(child)
                    elif type(child) is keyword:
                        self.parents[id(child)] = node

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(id(node))

    def move_of(self, node: ast.AST) -> ModuleMove | None:
        source = self.source_of(node)
        return self.moves[source][0] if source else None

    def source_of(self, node: ast.AST) -> str | None:
        if type(node) is not ast.Attribute:
            return None
        qualified = self.aliases.qualified(node)
        if qualified is None or not is_tensorflow(qualified):
            return None
        module = _canonical_module(qualified)
        return module if module in self.moves else None

    def moved_module_bindings(self) -> list[Binding]:
        return [
            binding for history in self.aliases.history.values() for binding in history
            if binding.value and is_tensorflow(binding.value) and _canonical_module(binding.value) in self.moves
        ]


class _Site:
    """`flags = tf.flags` at module level, the only binding of its name: it becomes `from absl import flags`.
    Or it repeats a `from absl import flags` above it, the name's only other binding (`repeats`): it goes."""

    def __init__(self, statement: ast.Assign, local: str, move: ModuleMove, code: str, repeats: ast.ImportFrom | None) -> None:
        self.statement, self.local, self.move, self.code, self.repeats = statement, local, move, code, repeats


def _assignment_site(resolver: _Resolver, binding: Binding, tree: ast.Module) -> _Site | None:
    """The binding as a `_Site` when it is the simple case, else None (LibCST's case)."""
    statement = resolver.parent(binding.node) if binding.node is not None else None
    if binding.scope is not None or type(statement) is not ast.Assign or statement not in tree.body:
        return None
    if len(statement.targets) != 1 or type(statement.targets[0]) is not ast.Name or statement.value is not binding.node:
        return None
    source = resolver.source_of(statement.value)
    if source is None or statement.value.end_lineno != statement.value.lineno:
        return None
    move, code = resolver.moves[source]
    others = [node for node in _bindings_of(tree, resolver.text, binding.name) if node is not statement.targets[0]]
    if not others:
        return _Site(statement, binding.name, move, code, None)
    repeated = _repeated_import(tree, statement, others, binding.name, move.target)
    return _Site(statement, binding.name, move, code, repeated) if repeated is not None else None


def _repeated_import(
    tree: ast.Module, statement: ast.Assign, others: list[ast.AST], local: str, target: tuple[str, str]
) -> ast.ImportFrom | None:
    """The module-level `from absl import flags` above `flags = tf.flags` that binds the same module to the same
    name, when it is the name's only other binding."""
    if len(others) != 1 or type(others[0]) is not ast.alias:
        return None
    for before in tree.body[:tree.body.index(statement)]:
        if type(before) is ast.ImportFrom and before.level == 0 and before.module == target[0] \
                and any(alias is others[0] and alias.name == target[1] == local and alias.asname is None for alias in before.names):
            return before
    return None


class Use:
    """One use of a moved module, on Python's AST: the interface of `module_moves.Use` that `decide` sees."""

    def __init__(self, resolver: _Resolver, node: ast.expr, move: ModuleMove, code: str) -> None:
        self._resolver = resolver
        self.node = node
        self.move = move
        self.code = code
        parent = resolver.parent(node)
        self._attribute = parent if type(parent) is ast.Attribute and parent.value is node else None
        self.member: str | None = self._attribute.attr if self._attribute is not None else None
        outer = resolver.parent(self._attribute) if self._attribute is not None else None
        self.call: ast.Call | None = outer if type(outer) is ast.Call and outer.func is self._attribute else None
        self.insert_first_argument: str | None = None

    @property
    def spelling(self) -> str:
        return ".".join(dotted_parts(self._attribute if self._attribute is not None else self.node) or [])

    @property
    def line(self) -> int:
        return self.node.lineno

    def has_star_arguments(self) -> bool:
        return self.call is not None and (
            any(type(arg) is ast.Starred for arg in self.call.args) or any(keyword.arg is None for keyword in self.call.keywords)
        )

    def argument(self, position: int, keyword: str) -> ast.AST | None:
        if self.call is None:
            return None
        for given in self.call.keywords:
            if given.arg == keyword:
                return given.value
        positional = [arg for arg in self.call.args if type(arg) is not ast.Starred]
        return positional[position] if len(positional) > position else None

    def is_member_use(self, expression: ast.AST, members: frozenset[str]) -> bool:
        if type(expression) is not ast.Attribute or expression.attr not in members:
            return False
        return self._resolver.move_of(expression.value) is self.move

    def enclosing_call(self) -> tuple[str, int | None, str | None] | None:
        target = self._attribute if self._attribute is not None else self.node
        parent = self._resolver.parent(target)
        keyword = None
        if type(parent) is ast.keyword:
            keyword, parent = parent.arg, self._resolver.parent(parent)
        if type(parent) is not ast.Call or type(parent.func) is not ast.Attribute or target is parent.func:
            return None
        if self._resolver.move_of(parent.func.value) is not self.move:
            return None
        if keyword is not None:
            return parent.func.attr, None, keyword
        if target not in parent.args:
            return None
        return parent.func.attr, parent.args.index(target), None

    def module_defines_function(self, name: str) -> bool:
        defined = any(isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name == name
                      for statement in self._resolver.tree.body)
        return defined and sum(1 for _ in _bindings_of(self._resolver.tree, self._resolver.text, name)) == 1


def _bindings_of(tree: ast.Module, text: str, name: str) -> Iterator[ast.AST]:
    """Every statement or parameter that binds `name` anywhere in the module (`text`)."""
    for node in descendants_on_lines(tree, match_lines(text, _naming(name), not_after=".")):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                yield node
        elif type(node) is ast.Name:
            if type(node.ctx) is ast.Store and node.id == name:
                yield node
        elif type(node) is ast.Import or type(node) is ast.ImportFrom:  # `descendants` leaves their `alias`es out
            yield from (alias for alias in node.names if (alias.asname or alias.name.partition(".")[0]) == name)
        elif type(node) is ast.arg and node.arg == name:
            yield node


def move_modules_fast(
    text: str, tree: ast.Module, fixes: dict[str, Fix], renames: Sequence[Edit] = (), aliases: AliasTable | None = None,
) -> FixResult | None:
    """The module moves by byte spans, or None when the file needs LibCST (see the module docstring).

    `renames`: one-line edits of other spans (TFM513's) made in the same pass when a module moves, so the
    renamed text need not be parsed again; the result's `layout` then says where every edit went.
    `aliases`: the module's alias table, when the caller has it."""
    if not spells_a_moved_module(text, fixes):
        return FixResult(text, False)  # no moved module is spelled: no walk needed
    resolver = _Resolver(tree, text, fixes, aliases)
    sites = []
    for binding in resolver.moved_module_bindings():
        site = _assignment_site(resolver, binding, tree)
        if site is None:
            return None
        sites.append(site)
    uses = _dotted_uses(resolver)
    if uses is None:
        return None
    if not uses and not sites:
        return FixResult(text, False)
    lines = physical_lines(text)
    decided_or_none = _decide_sites(resolver, sites, lines)
    if decided_or_none is None:
        return None
    decided = decided_or_none
    declined = decided.declined
    moved_values = {id(use.node) for use in decided.kept}
    kept: list[Use] = []
    for use in uses:
        if id(use.node) in moved_values:
            continue  # a refused site's value is a dotted use too
        reason = use.move.decide(use)
        if reason is not None:
            declined.append(Declined(use.line, use.code, use.spelling, reason))
        else:
            kept.append(use)
    declined.sort(key=lambda item: item.line)
    if not kept and not decided.edits:
        return FixResult(text, False, declined=declined)
    dropped = {site.move.target for site in sites if site.repeats is not None}
    if any(use.move.target in dropped for use in kept):
        return None  # a dotted use of a module whose repeated binding goes: LibCST picks its name
    edits: list[Edit] | None = list(decided.edits)
    for use in decided.kept:
        edits = _with_call_edits(edits, use, lines)
    new_imports: dict[tuple[str, str], str] = {}
    edits = _use_edits(edits, kept, decided.rebound, tree, text, lines, new_imports)
    if edits is None or _overlap([*edits, *renames]):
        return None
    site_statements = {id(edit_site.statement): edit_site for edit_site in decided.accepted}
    if new_imports and site_statements:
        new_imports = _merged_into_site(tree, site_statements, new_imports, edits)
    edits.extend(renames)
    new_lines = apply_edits(lines, edits)
    inserted: dict[int, int] = {}
    if new_imports:
        with_imports = _add_imports(new_lines, tree, new_imports, frozenset(site_statements))
        if with_imports is None:
            return None
        new_lines, merged, inserted = with_imports
        edits.extend(merged)
    one_line = all(edit.end_line == edit.line for edit in edits)
    layout = Layout(tuple(edits), inserted) if one_line else None
    return FixResult("".join(new_lines), True, len(kept) + len(decided.edits), declined, layout)


def _overlap(edits: list[Edit]) -> bool:
    """Two edits touch the same bytes or insert at the same place: made in one pass, their order would matter."""
    spans = sorted(((edit.line, edit.start), (edit.end_line, edit.end)) for edit in edits)
    return any(later[0] < earlier[1] or later[0] == earlier[0] for earlier, later in zip(spans, spans[1:]))


def _dotted_uses(resolver: _Resolver) -> list[Use] | None:
    """The longest chains through a moved module, in source order (as LibCST visits); None when one spans lines."""
    uses = []
    for node in resolver.attributes:
        source = resolver.source_of(node)
        if source is None:
            continue
        parent = resolver.parent(node)
        if type(parent) is ast.Attribute and parent.value is node and resolver.source_of(parent) is not None:
            continue  # `tf.app.flags`: the longer chain is the use
        if node.end_lineno != node.lineno:
            return None
        move, code = resolver.moves[source]
        uses.append(Use(resolver, node, move, code))
    uses.sort(key=lambda use: (use.node.lineno, use.node.col_offset))
    return uses


class _SiteDecisions(NamedTuple):
    """What becomes of the bindings of moved modules (`flags = tf.flags`): each moves with all its uses or stays."""

    edits: list[Edit]
    """Each accepted binding rewritten to an import of the target."""
    rebound: dict[tuple[str, str], tuple[int, str]]
    """target → (last line of its first accepted binding, the local name it binds)."""
    kept: list[Use]
    """The accepted bindings' values and the uses of the names they bind."""
    accepted: list[_Site]
    declined: list[Declined]


def _decide_sites(resolver: _Resolver, sites: list[_Site], lines: list[str]) -> _SiteDecisions | None:
    """A binding moves only if every use of the name it binds can: one refused use holds them all. None when
    one that repeats an absl import is not the plain case (LibCST's then)."""
    decided = _SiteDecisions([], {}, [], [], [])
    for site in sites:
        seen: list[ast.Name] | None = _names_loaded(resolver, site.local)
        drop = None
        if site.repeats is not None:
            seen = _after_the_site(resolver.tree, site.statement, seen or [])
            drop = _drop_edit(resolver.tree, site.statement, lines)
            if seen is None or drop is None:
                return None
        loaded = seen or []
        site_uses = [Use(resolver, site.statement.value, site.move, site.code)]  # the alias itself: other modules may import it
        site_uses += [Use(resolver, node, site.move, site.code) for node in loaded]
        refused = [(use, reason) for use in site_uses if (reason := site.move.decide(use)) is not None]
        if refused:
            for use, reason in refused:
                decided.declined.append(Declined(use.line, site.code, use.spelling, reason))
            first = refused[0][0]
            held = f"`{site.local}` is bound once for all its uses and `{first.spelling}` (line {first.line}) cannot move"
            refused_nodes = {id(use.node) for use, _ in refused}
            decided.declined.extend(
                Declined(use.line, site.code, use.spelling, held) for use in site_uses if id(use.node) not in refused_nodes
            )
            continue
        statement = site.statement
        package, name = site.move.target
        if drop is not None:  # the absl import above binds it already: the statement goes, as LibCST drops it
            decided.edits.append(drop)
            decided.kept.extend(site_uses)
            continue
        decided.edits.append(Edit(statement.lineno, statement.col_offset, statement.end_col_offset or 0,
                                   f"from {package} import {_alias_text(name, site.local)}", statement.end_lineno))
        end_line = statement.end_lineno or statement.lineno
        target = site.move.target
        decided.rebound[target] = min(decided.rebound.get(target, (end_line, site.local)), (end_line, site.local))
        decided.kept.extend(site_uses)
        decided.accepted.append(site)
    return decided


def _after_the_site(tree: ast.Module, site: ast.Assign, loaded: list[ast.Name]) -> list[ast.Name] | None:
    """The loads that see the site's binding (LibCST's references of it): those below it, and in functions.
    A module-level load above it sees the absl import only and is left out; None for one above it in a
    function, class, lambda or comprehension (scopes LibCST resolves otherwise)."""
    index = tree.body.index(site)
    kept = []
    for node in loaded:
        if (node.lineno, node.col_offset) > (site.lineno, site.col_offset):
            kept.append(node)
            continue
        holder = next((statement for statement in tree.body[:index]
                       if statement.lineno <= node.lineno <= (statement.end_lineno or statement.lineno)), None)
        if holder is None or hasattr(holder, "body") or any(isinstance(inner, _SCOPES) for inner in descendants(holder)):
            return None
    return kept


_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _drop_edit(tree: ast.Module, site: ast.Assign, lines: list[str]) -> Edit | None:
    """`site`'s line deleted as LibCST removes the statement: the blank lines above it go to the next statement,
    which keeps the longer run of blank lines (its own or those); None unless the plain case (alone on its
    line, between two statements with only blank lines, or comments below, around it)."""
    index = tree.body.index(site)
    if site.lineno != site.end_lineno or site.col_offset != 0 or index == 0 or index + 1 == len(tree.body):
        return None
    previous, following = tree.body[index - 1], tree.body[index + 1]
    if hasattr(previous, "body") or all(type(statement) in (ast.Import, ast.ImportFrom) or _is_docstring(statement)
                                        for statement in tree.body[:index]):
        return None
    raw = lines[site.lineno - 1].encode("utf-8")
    if raw[site.end_col_offset or 0:].strip():
        return None  # a comment or another statement on its line
    above = range((previous.end_lineno or previous.lineno) + 1, site.lineno)
    decorators = getattr(following, "decorator_list", None)
    below = range(site.lineno + 1, decorators[0].lineno if decorators else following.lineno)
    if any(lines[line - 1].strip() for line in above):
        return None
    if any(lines[line - 1].strip() for line in below) or len(above) >= len(below):
        first, last = site.lineno, (below[-1] if below and not any(lines[line - 1].strip() for line in below) else site.lineno)
    else:
        first, last = (above[0] if above else site.lineno), site.lineno
    return Edit(first, 0, len(lines[last - 1].encode("utf-8")), "", last)


def _with_call_edits(edits: list[Edit] | None, use: Use, lines: list[str]) -> list[Edit] | None:
    """`edits` plus those of `use`'s call (renamed keywords, re-aligned continuation lines); None when LibCST must."""
    if edits is None or use.call is None:
        return edits
    call_edits = _call_edits(use, lines)
    if call_edits is None:
        return None
    edits.extend(call_edits)
    return edits


def _use_edits(
    edits: list[Edit] | None, kept: list[Use], rebound: dict[tuple[str, str], tuple[int, str]], tree: ast.Module,
    text: str, lines: list[str], new_imports: dict[tuple[str, str], str],
) -> list[Edit] | None:
    """`edits` plus each kept dotted use rewritten to its target's local name: the name a moved binding now
    imports, an existing import of the target, or a new one (into `new_imports`); None when LibCST must."""
    locals_: dict[tuple[str, str], str] = {}
    star = any(type(statement) is ast.ImportFrom and any(alias.name == "*" for alias in statement.names) for statement in tree.body)
    for use in kept:
        if edits is None:
            return None
        target = use.move.target
        after = rebound.get(target)
        if after is not None:
            if use.line <= after[0]:
                return None  # a dotted use above the binding that becomes an absl import: LibCST's case
            edits.append(Edit(use.node.lineno, use.node.col_offset, use.node.end_col_offset or 0, after[1]))
            edits = _with_call_edits(edits, use, lines)
            continue
        if target not in locals_:
            existing = _existing_import(tree, text, *target)
            if existing is None:
                package, name = target
                local = name if not star and not _is_used(tree, text, name) else f"{package}_{name}"
                counter = 2
                while _is_used(tree, text, local):
                    local = f"{package}_{name}_{counter}"
                    counter += 1
                new_imports[target] = local
            else:
                local = existing
            locals_[target] = local
        spelled = use.node
        edits.append(Edit(spelled.lineno, spelled.col_offset, spelled.end_col_offset or 0, locals_[target]))
        edits = _with_call_edits(edits, use, lines)
    return edits


def _merged_into_site(
    tree: ast.Module, site_statements: dict[int, _Site], new_imports: dict[tuple[str, str], str], edits: list[Edit]
) -> dict[tuple[str, str], str]:
    """The sites are absl imports now: LibCST merges new imports into the first `from absl import` of the
    leading import block, which may be one of them; that site's edit then imports them too. The imports
    still to add are returned."""
    first_import = _first_absl_import(tree, site_statements)
    if first_import is None or id(first_import) not in site_statements:
        return new_imports
    site = site_statements[id(first_import)]
    package = site.move.target[0]
    merged = sorted({(site.move.target[1], site.local)} | {
        (name, local) for (target_package, name), local in new_imports.items() if target_package == package
    }, key=lambda item: (item[0], item[1] if item[1] != item[0] else ""))
    for edit in edits:
        if edit.line == first_import.lineno and edit.start == first_import.col_offset and edit.text.startswith("from "):
            edit.text = f"from {package} import " + ", ".join(_alias_text(name, local) for name, local in merged)
    return {target: local for target, local in new_imports.items() if target[0] != package}


def _names_loaded(resolver: _Resolver, name: str) -> list[ast.Name]:
    """Every `Load` of `name` (its only binding is the site), in source order; an attribute taken on it is
    recorded as its parent (what `Use.member` and `Use.call` read)."""
    for attribute in resolver.attributes:
        if type(attribute.value) is ast.Name and attribute.value.id == name:
            resolver.parents[id(attribute.value)] = attribute
    found = [node for node in descendants_on_lines(resolver.tree, match_lines(resolver.text, _naming(name), not_after="."))
             if type(node) is ast.Name and node.id == name and type(node.ctx) is ast.Load]
    return sorted(found, key=lambda node: (node.lineno, node.col_offset))


def _call_edits(use: Use, lines: list[str]) -> list[Edit] | None:
    call = use.call
    if call is None:
        return []
    edits = []
    for keyword in call.keywords:
        renamed = use.move.renamed_keywords.get(keyword.arg) if keyword.arg is not None else None
        if renamed and keyword.arg is not None:
            edits.append(Edit(keyword.lineno, keyword.col_offset, keyword.col_offset + len(keyword.arg.encode()), renamed))
    if use.insert_first_argument:
        end_line, end_column = call.func.end_lineno, call.func.end_col_offset
        if end_line is None or end_column is None:
            return None
        raw = lines[end_line - 1].encode("utf-8")
        if raw[end_column:end_column + 1] != b"(":
            return None
        at = end_column + 1
        empty = not call.args and not call.keywords
        edits.append(Edit(end_line, at, at, use.insert_first_argument + ("" if empty else ", ")))
    return edits


def _is_used(tree: ast.Module, text: str, name: str) -> bool:
    """Whether the module (`text`) has a name `name`: loaded, bound, imported, defined or a parameter."""
    for node in descendants_on_lines(tree, match_lines(text, _naming(name), not_after=".")):
        if type(node) is ast.Name:
            if node.id == name:
                return True
        elif type(node) is ast.Import or type(node) is ast.ImportFrom:  # `descendants` leaves their `alias`es out
            if any((alias.asname or alias.name).partition(".")[0] == name for alias in node.names):
                return True
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                return True
        elif type(node) is ast.arg and node.arg == name:
            return True
    return False


@lru_cache(maxsize=64)
def _naming(name: str) -> re.Pattern[str]:
    """`name` as a word; not right after a dot (`match_lines`' `not_after`), it is where a name (not an
    attribute) `name` can be."""
    return re.compile(re.escape(name) + r"\b")


def _existing_import(tree: ast.Module, text: str, package: str, name: str) -> str | None:
    """The local name of a module-level `from package import name [as x]` bound only there."""
    for statement in tree.body:
        if type(statement) is ast.ImportFrom and statement.level == 0 and statement.module == package:
            for alias in statement.names:
                if alias.name == name:
                    local = alias.asname or name
                    if sum(1 for _ in _bindings_of(tree, text, local)) == 1:
                        return local
    return None


def _is_docstring(statement: ast.stmt) -> bool:
    return type(statement) is ast.Expr and type(statement.value) is ast.Constant and isinstance(statement.value.value, str)


def _is_future_import(statement: ast.stmt) -> bool:
    return type(statement) is ast.ImportFrom and statement.module == "__future__"


def _is_tensorflow_import(statement: ast.stmt) -> bool:
    if type(statement) is ast.Import:
        return any(is_tensorflow(alias.name) for alias in statement.names)
    return type(statement) is ast.ImportFrom and statement.level == 0 and is_tensorflow(statement.module or "")


def _leading_block(tree: ast.Module, sites: frozenset[int]) -> tuple[int, int]:
    """(start, end) indexes of the leading import block; sites (`flags = tf.flags`, now absl imports) count."""
    body = tree.body
    start = 1 if body and _is_docstring(body[0]) else 0
    end = start
    while end < len(body) and (type(body[end]) in (ast.Import, ast.ImportFrom) or id(body[end]) in sites):
        end += 1
    return start, end


def _first_absl_import(tree: ast.Module, sites: dict[int, _Site]) -> ast.stmt | None:
    start, end = _leading_block(tree, frozenset(sites))
    for statement in tree.body[start:end]:
        if id(statement) in sites:
            return statement
        if type(statement) is ast.ImportFrom and statement.level == 0 and statement.module == "absl":
            return statement
    return None


def _add_imports(
    lines: list[str], tree: ast.Module, imports: dict[tuple[str, str], str], sites: frozenset[int] = frozenset()
) -> tuple[list[str], list[Edit], dict[int, int]] | None:
    """Merge into a leading `from package import ...`, else a new line before the first TensorFlow import of the
    leading import block, else after that block (as `module_moves._add_imports` does); None when unsure.
    With the new lines, the merges as edits of the original lines and how many lines went in before which."""
    body = tree.body
    start, end = _leading_block(tree, sites)
    if any(_shares_line(body, index) for index in range(start, min(end + 1, len(body)))):
        return None  # semicolons: LibCST's statement lines
    by_package: dict[str, list[tuple[str, str]]] = {}
    for (package, name), local in sorted(imports.items()):
        by_package.setdefault(package, []).append((name, local))
    insertions: dict[int, list[str]] = {}
    merges: list[Edit] = []
    new = list(lines)
    newline = _newline(lines)
    for package, names in by_package.items():
        aliases = [(name, local) for name, local in names]
        merged = False
        for statement in body[start:end]:
            if type(statement) is ast.ImportFrom and statement.level == 0 and statement.module == package \
                    and all(alias.name != "*" for alias in statement.names):
                if statement.lineno != statement.end_lineno or "(" in new[statement.lineno - 1]:
                    return None
                existing = [(alias.name, alias.asname or alias.name) for alias in statement.names]
                combined = sorted(set(existing + aliases), key=lambda item: (item[0], item[1] if item[1] != item[0] else ""))
                text = f"from {package} import " + ", ".join(_alias_text(name, local) for name, local in combined)
                raw = new[statement.lineno - 1].encode("utf-8")
                new[statement.lineno - 1] = (raw[:statement.col_offset] + text.encode() + raw[statement.end_col_offset:]).decode("utf-8")
                merges.append(Edit(statement.lineno, statement.col_offset, statement.end_col_offset or 0, text))
                merged = True
                break
        if merged:
            continue
        line = f"from {package} import " + ", ".join(_alias_text(name, local) for name, local in aliases) + newline
        position = next((index for index in range(start, end) if _is_tensorflow_import(body[index])
                         and not _is_future_import(body[index])), None)
        if position is not None:
            at = body[position].lineno  # before it: the comments above it stay above the new import
        elif end > 0:
            at = (body[end - 1].end_lineno or body[end - 1].lineno) + 1
        else:
            at = 1
        insertions.setdefault(at, []).append(line)
    for at in sorted(insertions, reverse=True):
        if at - 2 >= 0 and at - 2 < len(new) and not new[at - 2].endswith(("\n", "\r")):
            new[at - 2] += newline
        new[at - 1:at - 1] = insertions[at]
    return new, merges, {at: len(added) for at, added in insertions.items()}


def _alias_text(name: str, local: str) -> str:
    return name if local == name else f"{name} as {local}"


def _shares_line(body: list[ast.stmt], index: int) -> bool:
    statement = body[index]
    neighbours = [body[index - 1]] if index > 0 else []
    neighbours += [body[index + 1]] if index + 1 < len(body) else []
    return any(other.lineno == statement.end_lineno or other.end_lineno == statement.lineno for other in neighbours)


def _newline(lines: list[str]) -> str:
    for line in lines:
        if line.endswith("\r\n"):
            return "\r\n"
        if line.endswith("\n"):
            return "\n"
        if line.endswith("\r"):
            return "\r"
    return "\n"
