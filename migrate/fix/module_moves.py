"""Rewrite one module's text with LibCST: the `ModuleMove`s of the registered fixes.

Format-preserving: only the nodes that change are replaced, so comments,
blank lines, quoting and line endings stay as written. Names are resolved with
LibCST's scope analysis (`QualifiedNameProvider`), through every import
spelling the report understands (`migrate.scanning.names.canonical`).

Two kinds of sites change:

* a *binding* of a moved module — `from tensorflow.compat.v1 import flags`,
  `from tensorflow.python.platform import tf_logging as logging`,
  `flags = tf.app.flags` — becomes `from absl import flags` under the same
  local name, when every use of that name can move (else it is left alone);
* a *dotted use* — `tf.compat.v1.logging.info` — becomes `logging.info`, with
  `from absl import logging` added once at the top of the module (merged into
  an existing `from absl import ...`, or under a fresh name such as
  `absl_logging` when `logging` already means something else in the file).

Each use is vetted by its move's `decide`; a use that cannot move is left as
is and reported as `Declined` with the reason, so its finding stays.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeGuard, TypeVar

import libcst as cst
from libcst.metadata import (
    Assignment,
    BaseAssignment,
    MetadataWrapper,
    ParentNodeProvider,
    PositionProvider,
    QualifiedNameProvider,
    Scope,
    ScopeProvider,
)

from migrate.fix.registry import Fix, ModuleMove
from migrate.fix.result import Declined, FixFailed, FixResult
from migrate.scanning.names import canonical, is_tensorflow

Node = TypeVar("Node", bound=cst.CSTNode)
"""A node LibCST's transformer hands to `on_leave` (which returns the same kind, or a sentinel)."""

def move_modules(text: str, fixes: dict[str, Fix]) -> FixResult:
    """Apply the module moves of `fixes` to `text` (which `ast.parse` accepted)."""
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as error:
        raise FixFailed(f"syntax error at line {error.raw_line}: {error.message}") from None
    except Exception as error:  # noqa: BLE001 - LibCST raises plain errors for some inputs it cannot round-trip
        raise FixFailed(f"cannot parse: {type(error).__name__}: {error}") from None
    plan = _Planner(module, fixes).plan()
    if not plan.has_edits:
        return FixResult(text, False, declined=plan.declined)
    new_text = module.visit(_Rewriter(plan)).code
    return FixResult(new_text, new_text != text, plan.rewrites, plan.declined)


class Use:
    """One use of a moved module: `module.member`, maybe called. What `decide` sees."""

    def __init__(self, planner: _Planner, node: cst.CSTNode, move: ModuleMove, code: str) -> None:
        self._planner = planner
        self.node = node
        self.move = move
        self.code = code
        parent = planner.parents.get(node)
        self._attribute = parent if isinstance(parent, cst.Attribute) and parent.value is node else None
        self.member: str | None = self._attribute.attr.value if self._attribute is not None else None
        outer = planner.parents.get(self._attribute) if self._attribute is not None else None
        self.call: cst.Call | None = outer if isinstance(outer, cst.Call) and outer.func is self._attribute else None
        self.insert_first_argument: str | None = None

    @property
    def spelling(self) -> str:
        return _code(self._attribute if self._attribute is not None else self.node)

    @property
    def line(self) -> int:
        return self._planner.positions[self.node].start.line

    def has_star_arguments(self) -> bool:
        return self.call is not None and any(arg.star for arg in self.call.args)

    def argument(self, position: int, keyword: str) -> cst.BaseExpression | None:
        """The call's argument by position or keyword, if given plainly."""
        if self.call is None:
            return None
        positional = [arg for arg in self.call.args if arg.keyword is None and not arg.star]
        for arg in self.call.args:
            if arg.keyword is not None and arg.keyword.value == keyword:
                return arg.value
        return positional[position].value if len(positional) > position else None

    def is_member_use(self, expression: cst.BaseExpression, members: frozenset[str]) -> bool:
        """`expression` is `<this move's module>.<one of members>`."""
        if not isinstance(expression, cst.Attribute) or expression.attr.value not in members:
            return False
        return self._planner.move_of(expression.value) is self.move

    def enclosing_call(self) -> tuple[str, int | None, str | None] | None:
        """When this use is an argument of a call through the same module: (member, position, keyword)."""
        target = self._attribute if self._attribute is not None else self.node
        arg = self._planner.parents.get(target)
        if not isinstance(arg, cst.Arg) or arg.value is not target:
            return None
        call = self._planner.parents.get(arg)
        if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
            return None
        if self._planner.move_of(call.func.value) is not self.move:
            return None
        if arg.keyword is not None:
            return call.func.attr.value, None, arg.keyword.value
        positional = [each for each in call.args if each.keyword is None]
        return call.func.attr.value, positional.index(arg) if not arg.star else None, None

    def module_defines_function(self, name: str) -> bool:
        """A module-level `def name` that is the only binding of `name` in the file."""
        defined = any(isinstance(statement, cst.FunctionDef) and statement.name.value == name for statement in self._planner.module.body)
        return defined and self._planner.binding_count(name) == 1


@dataclass
class _Site:
    """A statement that binds a moved module to a local name."""

    statement: cst.BaseSmallStatement
    alias: cst.ImportAlias | None
    local: str
    move: ModuleMove
    code: str
    module_level: bool


@dataclass
class _Plan:
    module: cst.Module
    replace: dict[cst.CSTNode, cst.BaseExpression] = field(default_factory=dict)
    calls: dict[cst.Call, tuple[str | None, dict[str, str]]] = field(default_factory=dict)
    sites: dict[cst.BaseSmallStatement, list[_Site]] = field(default_factory=dict)
    drop_sites: set[cst.BaseSmallStatement] = field(default_factory=set)
    new_imports: dict[tuple[str, str], str] = field(default_factory=dict)
    locals: dict[tuple[str, str], str] = field(default_factory=dict)
    declined: list[Declined] = field(default_factory=list)
    rewrites: int = 0

    @property
    def has_edits(self) -> bool:
        return bool(self.replace or self.calls or self.sites or self.new_imports)


class _Planner:
    def __init__(self, module: cst.Module, fixes: dict[str, Fix]) -> None:
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        self.module = module
        self.parents = wrapper.resolve(ParentNodeProvider)
        self.positions = wrapper.resolve(PositionProvider)
        self.scopes = wrapper.resolve(ScopeProvider)
        self._qualified = wrapper.resolve(QualifiedNameProvider)
        self.moves: dict[str, tuple[ModuleMove, str]] = {
            move.source: (move, fix.code) for fix in fixes.values() for move in fix.moves
        }
        self._bindings: dict[str, int] | None = None
        self._names: set[str] | None = None

    # -- resolution -------------------------------------------------------

    def source_of(self, node: cst.CSTNode) -> str | None:
        """The moved module a Name/Attribute stands for, if any."""
        names = self._qualified.get(node)
        if names is None:
            return None
        names = names() if callable(names) else names
        for qualified in names:
            if is_tensorflow(qualified.name):
                name = _canonical_module(qualified.name)
                if name in self.moves:
                    return name
        return None

    def move_of(self, node: cst.CSTNode) -> ModuleMove | None:
        source = self.source_of(node)
        return self.moves[source][0] if source else None

    def binding_count(self, name: str) -> int:
        if self._bindings is None:
            self._bindings = {}
            for scope in self._all_scopes():
                for assignment in scope.assignments:
                    self._bindings[assignment.name] = self._bindings.get(assignment.name, 0) + 1
        return self._bindings.get(name, 0)

    def used_names(self) -> set[str]:
        if self._names is None:
            collector = _NameCollector()
            self.module.visit(collector)
            self._names = collector.names
        return self._names

    def _all_scopes(self) -> set[Scope]:
        return {scope for scope in self.scopes.values() if scope is not None}

    # -- planning ---------------------------------------------------------

    def plan(self) -> _Plan:
        plan = _Plan(self.module)
        sites = self._binding_sites()
        site_accesses: set[cst.CSTNode] = set()
        rebound: dict[tuple[str, str], tuple[int, str]] = {}
        """target → (line, local) of a module-level `flags = tf.flags` that becomes `from absl import flags`."""
        for site in sites:
            accesses = self._accesses(site)
            if accesses is None:
                line = self.positions[site.statement].start.line
                plan.declined.append(Declined(line, site.code, site.local, "the name is also bound elsewhere on some path; left as is"))
                continue
            uses = [Use(self, access, site.move, site.code) for access in accesses]
            if isinstance(site.statement, cst.Assign):
                # The alias itself is a use: other modules may import it and use any member.
                uses.insert(0, Use(self, site.statement.value, site.move, site.code))
            refused = [(use, reason) for use in uses if (reason := site.move.decide(use)) is not None]
            if refused:
                for use, reason in refused:
                    plan.declined.append(Declined(use.line, site.code, use.spelling, reason))
                first = refused[0][0]
                held = f"`{site.local}` is bound once for all its uses and `{first.spelling}` (line {first.line}) cannot move"
                refused_nodes = {use.node for use, _ in refused}
                plan.declined.extend(
                    Declined(use.line, site.code, use.spelling, held) for use in uses if use.node not in refused_nodes
                )
                continue
            plan.sites.setdefault(site.statement, []).append(site)
            plan.rewrites += 1
            site_accesses.update(accesses)
            if isinstance(site.statement, cst.Assign):
                site_accesses.add(site.statement.value)
                if site.module_level and self.binding_count(site.local) == 1:
                    line = self.positions[site.statement].end.line
                    rebound[site.move.target] = min(rebound.get(site.move.target, (line, site.local)), (line, site.local))
            elif site.module_level and self._in_leading_imports(site.statement) and self.binding_count(site.local) == 1:
                plan.locals.setdefault(site.move.target, site.local)
            for use in uses:
                self._plan_call(plan, use)
        for node, move, code in self._dotted_uses(site_accesses):
            use = Use(self, node, move, code)
            reason = move.decide(use)
            if reason is not None:
                plan.declined.append(Declined(use.line, code, use.spelling, reason))
                continue
            after = rebound.get(move.target)
            if after is not None and use.line > after[0]:
                local = after[1]  # `tf.flags.X` below `flags = tf.flags`: that binding is absl's module now
            else:
                local = self._local_name(plan, move.target)
            plan.replace[node] = cst.Name(local)
            plan.rewrites += 1
            self._plan_call(plan, use)
        self._deduplicate_sites(plan)
        plan.declined.sort(key=lambda item: item.line)
        return plan

    def _plan_call(self, plan: _Plan, use: Use) -> None:
        if use.call is None:
            return
        renames = {arg.keyword.value: use.move.renamed_keywords[arg.keyword.value]
                   for arg in use.call.args if arg.keyword is not None and arg.keyword.value in use.move.renamed_keywords}
        if use.insert_first_argument or renames:
            plan.calls[use.call] = (use.insert_first_argument, renames)

    def _binding_sites(self) -> list[_Site]:
        finder = _SiteFinder(self)
        self.module.visit(finder)
        return finder.sites

    def _accesses(self, site: _Site) -> list[cst.CSTNode] | None:
        """Every use of the site's binding, in source order (LibCST keeps references in a set: the first use
        a refusal names must not depend on it); None when one also sees another binding."""
        scope = self.scopes.get(site.statement)
        if scope is None:
            return None
        accesses: list[cst.CSTNode] = []
        for assignment in scope.assignments[site.local]:
            if not isinstance(assignment, Assignment) or assignment.node not in (site.statement, site.alias, *self._targets(site.statement)):
                continue
            for access in assignment.references:
                others = [other for other in access.referents if other is not assignment]
                if not isinstance(access.node, cst.Name) or not all(self._is_absl_import(other, site.move.target) for other in others):
                    return None
                accesses.append(access.node)
        return sorted(accesses, key=lambda node: (self.positions[node].start.line, self.positions[node].start.column))

    @staticmethod
    def _is_absl_import(assignment: BaseAssignment, target: tuple[str, str]) -> bool:
        """`from absl import name [as x]`: the same module the site is about to bind."""
        node = getattr(assignment, "node", None)
        if not isinstance(node, cst.ImportFrom) or node.relative or _dotted(node.module) != target[0]:
            return False
        return not isinstance(node.names, cst.ImportStar) and any(
            _dotted(alias.name) == target[1] and (alias.evaluated_alias or target[1]) == assignment.name for alias in node.names
        )

    @staticmethod
    def _targets(statement: cst.BaseSmallStatement) -> tuple[cst.CSTNode, ...]:
        if isinstance(statement, cst.Assign):
            return tuple(target.target for target in statement.targets)
        return ()

    def _dotted_uses(self, excluded: set[cst.CSTNode]) -> list[tuple[cst.CSTNode, ModuleMove, str]]:
        finder = _DottedUseFinder(self, excluded)
        self.module.visit(finder)
        return finder.uses

    def _local_name(self, plan: _Plan, target: tuple[str, str]) -> str:
        if target in plan.locals:
            return plan.locals[target]
        package, name = target
        local = self._existing_import(package, name)
        if local is None:
            used = self.used_names()
            # A star import may bring `name` in after our import and take it over: use a name of our own.
            local = name if name not in used and not self._has_star_import() else f"{package}_{name}"
            counter = 2
            while local in used:
                local = f"{package}_{name}_{counter}"
                counter += 1
            plan.new_imports[target] = local
        plan.locals[target] = local
        return local

    def _has_star_import(self) -> bool:
        return any(
            isinstance(small, cst.ImportFrom) and isinstance(small.names, cst.ImportStar)
            for statement in self.module.body if isinstance(statement, cst.SimpleStatementLine) for small in statement.body
        )

    def _in_leading_imports(self, small: cst.BaseSmallStatement) -> bool:
        for statement in self.module.body:
            if _is_docstring(statement):
                continue
            if not _is_import(statement):
                return False
            if small in statement.body:
                return True
        return False

    def _existing_import(self, package: str, name: str) -> str | None:
        """The local name of a module-level `from package import name [as x]` bound only there."""
        for statement in self.module.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.ImportFrom) and not small.relative and _dotted(small.module) == package \
                        and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        if _dotted(alias.name) == name:
                            local = alias.evaluated_alias or name
                            if self.binding_count(local) == 1:
                                return local
        return None

    def _deduplicate_sites(self, plan: _Plan) -> None:
        """A module-level binding that repeats an absl import already bound to the same name goes away."""
        for statement, sites in plan.sites.items():
            if isinstance(statement, cst.Assign) and len(sites) == 1 and sites[0].module_level:
                site = sites[0]
                if site.local in self._module_level_imports(*site.move.target, before=statement):
                    plan.drop_sites.add(statement)

    def _module_level_imports(self, package: str, name: str, before: cst.CSTNode) -> set[str]:
        """Local names of module-level `from package import name [as x]` above `before`."""
        found: set[str] = set()
        for statement in self.module.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            if before in statement.body:
                break
            for small in statement.body:
                if isinstance(small, cst.ImportFrom) and not small.relative and _dotted(small.module) == package \
                        and not isinstance(small.names, cst.ImportStar):
                    found.update(alias.evaluated_alias or name for alias in small.names if _dotted(alias.name) == name)
        return found


class _SiteFinder(cst.CSTVisitor):
    def __init__(self, planner: _Planner) -> None:
        self.planner = planner
        self.sites: list[_Site] = []
        self.depth = 0

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.depth += 1

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.depth -= 1

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.depth += 1

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.depth -= 1

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or isinstance(node.names, cst.ImportStar) or node.module is None:
            return
        module = _dotted(node.module)
        for alias in node.names:
            self._maybe_site(node, alias, f"{module}.{_dotted(alias.name)}", alias.evaluated_alias or _dotted(alias.name))

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            if alias.asname is not None:
                self._maybe_site(node, alias, _dotted(alias.name), alias.evaluated_alias)

    def visit_Assign(self, node: cst.Assign) -> None:
        if self.depth or len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
            return
        source = self.planner.source_of(node.value)
        if source is not None:
            move, code = self.planner.moves[source]
            self.sites.append(_Site(node, None, node.targets[0].target.value, move, code, True))

    def _maybe_site(self, statement: cst.BaseSmallStatement, alias: cst.ImportAlias, full: str, local: str | None) -> None:
        if local is None or not is_tensorflow(full):
            return
        found = self.planner.moves.get(_canonical_module(full))
        if found is not None:
            self.sites.append(_Site(statement, alias, local, found[0], found[1], self.depth == 0))


class _DottedUseFinder(cst.CSTVisitor):
    """Attribute chains that stand for a moved module (`tf.compat.v1.logging`), outermost only."""

    def __init__(self, planner: _Planner, excluded: set[cst.CSTNode]) -> None:
        self.planner = planner
        self.excluded = excluded
        self.uses: list[tuple[cst.CSTNode, ModuleMove, str]] = []

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        source = self.planner.source_of(node)
        if source is None:
            return True
        parent = self.planner.parents.get(node)
        if isinstance(parent, cst.Attribute) and parent.value is node and self.planner.source_of(parent) is not None:
            return True
        if node in self.excluded or _root(node) in self.excluded:
            return False
        move, code = self.planner.moves[source]
        self.uses.append((node, move, code))
        return False


class _NameCollector(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        self.names.add(_dotted(node.name).partition(".")[0])


class _Rewriter(cst.CSTTransformer):
    def __init__(self, plan: _Plan) -> None:
        self.plan = plan
        self._orphan_lines: tuple[cst.EmptyLine, ...] = ()
        """Blank lines above a statement the fix removed, for the next statement of the same block."""
        self._adopted: dict[cst.CSTNode, tuple[cst.EmptyLine, ...]] = {}

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self._orphan_lines and isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            self._adopted[node], self._orphan_lines = self._orphan_lines, ()
        return super().on_visit(node)

    def on_leave(
        self, original_node: Node, updated_node: Node
    ) -> Node | cst.RemovalSentinel | cst.FlattenSentinel[Node]:
        if isinstance(original_node, (cst.IndentedBlock, cst.Module)):
            self._orphan_lines = ()  # the removed statement was the block's last: its blank lines go with it
        result = super().on_leave(original_node, updated_node)
        adopted = self._adopted.pop(original_node, None)
        if adopted and isinstance(result, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            own = tuple(result.leading_lines)
            blank = all(line.comment is None for line in own)
            merged = max(adopted, own, key=len) if blank else (*adopted, *own)
            result = result.with_changes(leading_lines=merged)
        return result

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        replacement = self.plan.replace.get(original_node)
        return replacement if replacement is not None else updated_node

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        edit = self.plan.calls.get(original_node)
        if edit is None:
            return updated_node
        first, renames = edit
        args = [
            arg.with_changes(keyword=cst.Name(renames[arg.keyword.value])) if arg.keyword is not None and arg.keyword.value in renames else arg
            for arg in updated_node.args
        ]
        if first is not None:
            comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if args else cst.MaybeSentinel.DEFAULT
            args.insert(0, cst.Arg(cst.Name(first), comma=comma))
        return updated_node.with_changes(args=args)

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
        if not any(small in self.plan.sites for small in original_node.body):
            return updated_node
        kept, added = self._rebuild(original_node.body, updated_node.body)
        if kept:
            line = updated_node.with_changes(body=_semicolons(kept))
            return cst.FlattenSentinel([line, cst.SimpleStatementLine(body=_semicolons(added))]) if added else line
        if added:
            return updated_node.with_changes(body=_semicolons(added))
        if any(line.comment is not None for line in original_node.leading_lines) or original_node.trailing_whitespace.comment:
            return updated_node.with_changes(body=[cst.Pass()])
        self._orphan_lines = tuple(original_node.leading_lines)
        return cst.RemoveFromParent()

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        """`if ...: from tensorflow.compat.v1 import flags` — the same, kept on its one line."""
        if not any(small in self.plan.sites for small in original_node.body):
            return updated_node
        kept, added = self._rebuild(original_node.body, updated_node.body)
        return updated_node.with_changes(body=_semicolons(kept + added or [cst.Pass()]))

    def _rebuild(
        self, originals: Sequence[cst.BaseSmallStatement], updated_body: Sequence[cst.BaseSmallStatement]
    ) -> tuple[list[cst.BaseSmallStatement], list[cst.BaseSmallStatement]]:
        """The small statements kept (imports minus moved names) and the absl imports that replace sites."""
        kept: list[cst.BaseSmallStatement] = []
        added: list[cst.BaseSmallStatement] = []
        for original, updated in zip(originals, updated_body):
            sites = self.plan.sites.get(original)
            if sites is None:
                kept.append(updated)
                continue
            remaining = _without_aliases(updated, {site.alias for site in sites if site.alias is not None}, original)
            if remaining is not None:
                kept.append(remaining)
            if original not in self.plan.drop_sites:
                added.extend(_absl_imports([(site.move.target, site.local) for site in sites]))
        return kept, added

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self.plan.new_imports:
            return updated_node
        return _add_imports(updated_node, self.plan.new_imports)


def _without_aliases(
    updated: cst.BaseSmallStatement, aliases: set[cst.ImportAlias], original: cst.BaseSmallStatement
) -> cst.BaseSmallStatement | None:
    """The import statement minus the moved aliases; None when nothing is left (or it was an assignment)."""
    if not isinstance(original, (cst.Import, cst.ImportFrom)) or isinstance(original.names, cst.ImportStar):
        return None
    if not isinstance(updated, (cst.Import, cst.ImportFrom)) or isinstance(updated.names, cst.ImportStar):
        return None
    kept = [new for old, new in zip(original.names, updated.names) if old not in aliases]
    if not kept:
        return None
    kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return updated.with_changes(names=kept)


def _semicolons(body: list[cst.BaseSmallStatement]) -> list[cst.BaseSmallStatement]:
    return [
        small.with_changes(semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" ")) if index < len(body) - 1 else cst.MaybeSentinel.DEFAULT)
        for index, small in enumerate(body)
    ]


def _absl_imports(bindings: list[tuple[tuple[str, str], str]]) -> list[cst.ImportFrom]:
    """One `from package import a, b as c` per package."""
    by_package: dict[str, list[cst.ImportAlias]] = {}
    for (package, name), local in sorted(set(bindings)):
        asname = None if local == name else cst.AsName(cst.Name(local))
        by_package.setdefault(package, []).append(cst.ImportAlias(cst.Name(name), asname=asname))
    return [cst.ImportFrom(module=cst.Name(package), names=_commas(aliases)) for package, aliases in by_package.items()]


def _add_imports(module: cst.Module, imports: dict[tuple[str, str], str]) -> cst.Module:
    """Merge into a top-level `from absl import ...`, else add one statement before the TensorFlow import."""
    by_package: dict[str, list[tuple[str, str]]] = {}
    for (package, name), local in sorted(imports.items()):
        by_package.setdefault(package, []).append((name, local))
    body = list(module.body)
    for package, names in by_package.items():
        aliases = [cst.ImportAlias(cst.Name(name), asname=None if local == name else cst.AsName(cst.Name(local))) for name, local in names]
        merged = _merge_into_existing(body, package, aliases)
        if merged:
            continue
        index = _insertion_index(body)
        statement = cst.SimpleStatementLine(body=[cst.ImportFrom(module=cst.Name(package), names=_commas(aliases))])
        if index < len(body) and _is_tensorflow_import(body[index]):
            statement = statement.with_changes(leading_lines=body[index].leading_lines)
            body[index] = body[index].with_changes(leading_lines=())
        body.insert(index, statement)
    return module.with_changes(body=body)


def _merge_into_existing(
    body: list[cst.SimpleStatementLine | cst.BaseCompoundStatement], package: str, aliases: list[cst.ImportAlias]
) -> bool:
    """Add the names to a `from package import ...` of the leading import block, if there is one."""
    for index, statement in enumerate(body):
        if index == 0 and _is_docstring(statement):
            continue
        if not _is_import(statement):
            return False
        if len(statement.body) != 1:
            continue
        small = statement.body[0]
        if isinstance(small, cst.ImportFrom) and not small.relative and _dotted(small.module) == package \
                and not isinstance(small.names, cst.ImportStar):
            if small.lpar is not None:
                return False
            existing = [alias.with_changes(comma=cst.MaybeSentinel.DEFAULT) for alias in small.names]
            names = sorted(existing + aliases, key=lambda alias: (_dotted(alias.name), alias.evaluated_alias or ""))
            body[index] = statement.with_changes(body=[small.with_changes(names=_commas(names))])
            return True
    return False


def _commas(aliases: list[cst.ImportAlias]) -> list[cst.ImportAlias]:
    return [
        alias.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if index < len(aliases) - 1 else cst.MaybeSentinel.DEFAULT)
        for index, alias in enumerate(aliases)
    ]


def _insertion_index(body: Sequence[cst.BaseStatement]) -> int:
    """Before the first top-level TensorFlow import of the leading import block, else after that block."""
    index = 0
    if body and _is_docstring(body[0]):
        index = 1
    first_import_block = index
    while index < len(body) and _is_import(body[index]):
        index += 1
    for position in range(first_import_block, index):
        if _is_tensorflow_import(body[position]) and not _is_future_import(body[position]):
            return position
    return index


def _is_docstring(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
        and isinstance(statement.body[0], cst.Expr) and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _is_import(statement: cst.CSTNode) -> TypeGuard[cst.SimpleStatementLine]:
    return isinstance(statement, cst.SimpleStatementLine) and all(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)


def _is_future_import(statement: cst.CSTNode) -> bool:
    return _is_import(statement) and any(
        isinstance(small, cst.ImportFrom) and small.module is not None and _dotted(small.module) == "__future__" for small in statement.body
    )


def _is_tensorflow_import(statement: cst.CSTNode) -> bool:
    if not _is_import(statement):
        return False
    for small in statement.body:
        if isinstance(small, cst.Import):
            modules = [_dotted(alias.name) for alias in small.names]
        else:  # an ImportFrom: _is_import holds
            modules = [_dotted(small.module) if isinstance(small, cst.ImportFrom) and small.module else ""]
        if any(is_tensorflow(module) for module in modules):
            return True
    return False


def _canonical_module(name: str) -> str:
    """`canonical` for a module itself: `tensorflow.python.platform.tf_logging` → `tensorflow.logging`."""
    return canonical(name + ".member").rpartition(".")[0]


def _dotted(node: cst.BaseExpression | None) -> str:
    if node is None:
        return ""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _root(node: cst.BaseExpression) -> cst.BaseExpression:
    while isinstance(node, cst.Attribute):
        node = node.value
    return node


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)
