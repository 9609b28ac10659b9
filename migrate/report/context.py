"""What a rule check sees of the file it runs on."""
from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from functools import cached_property, partial
from typing import TYPE_CHECKING, NamedTuple, TypeVar, cast

from migrate.scanning.aliases import AliasTable, dotted_parts
from migrate.scanning.walk import descendants

if TYPE_CHECKING:
    from migrate.core.hook_map import HookEquivalent

T = TypeVar("T")


class Reference(NamedTuple):
    """A maximal name chain (`tf.compat.v1.train.Saver`) that resolves into TensorFlow.

    `name` is canonical (`tensorflow.train.Saver`), `spelling` is what the
    file wrote, `call` the `Call` node when the chain is what is called.
    Rules register for references by canonical name or namespace.
    """

    node: ast.AST
    name: str
    spelling: str
    call: ast.Call | None
    qualified: str | None
    """What the file wrote with its root resolved, not canonicalised: a chain's `FileContext.qualified(node)`
    (`tensorflow.compat.v1.log`), an import's module; None through a wrapper call (`helpers.slim().arg_scope`).
    The dispatch has it at hand, and the rules about names as written ask for it (`written_names`)."""


as_reference = partial(tuple.__new__, Reference)
"""A tuple of a `Reference`'s fields as a `Reference`, for the loop that makes thousands (7,682 on tensor2tensor):
the `__new__` a NamedTuple generates is a Python function entered from C at each call (about 1,200 instructions);
`tuple.__new__`, which `Reference._make` calls too, is not."""


class MethodBody:
    """A SessionRunHook protocol method (`begin`, `after_run`, …) of a class in the file.

    Whether the class is a hook is only known after the whole-codebase pass, so
    rules that register for `MethodBody` give findings that are kept only when
    the class turns out to be a hook. `owner` is the class, `class_name` its name.
    (A plain class, not a dataclass or NamedTuple: `calls` is cached on the instance.)
    """

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef, owner: ast.ClassDef, class_name: str = "") -> None:
        self.node = node
        self.owner = owner
        self.class_name = class_name

    def __repr__(self) -> str:
        return f"MethodBody({self.class_name}.{self.node.name})"

    @property
    def name(self) -> str:
        return self.node.name

    @cached_property
    def calls(self) -> list[ast.Call]:
        """Every call in the method, in no particular order (shared by the rules that look at them)."""
        return [node for node in descendants(self.node) if type(node) is ast.Call]

    def parameters(self) -> list[str]:
        """Positional parameter names after `self`."""
        names = [argument.arg for argument in self.node.args.posonlyargs + self.node.args.args]
        return names[1:] if names and names[0] in ("self", "cls") else names


class FileContext:
    """One file's alias table and facts shared by its checks.

    `hook_map` (hook class name → the callback that replaces it) is handed in
    by the scanner, so rules never reach for process-wide state.
    """

    def __init__(
        self,
        tree: ast.Module,
        aliases: AliasTable,
        assignments: list[ast.Assign | ast.AnnAssign],
        hook_map: Mapping[str, HookEquivalent] | None = None,
        text: str | None = None,
    ) -> None:
        self.tree = tree
        self.text = text
        """The file's source, when the scanner has it: a rule may rule a construct out by its spelling
        (`"set_step" not in text`) before walking the tree for it."""
        self.aliases = aliases
        self.assignments = assignments
        self.hook_map: Mapping[str, HookEquivalent] = hook_map or {}
        self._memo: dict[str, object] = {}

    def memo(self, key: str, compute: Callable[[FileContext], T]) -> T:
        """A per-file fact a rule computes once (`compute(self)`), kept under `key`."""
        if key not in self._memo:
            self._memo[key] = compute(self)
        return cast(T, self._memo[key])  # each key is only ever filled by the one `compute` that reads it

    def tensorflow_name(self, node: ast.AST) -> str | None:
        """Canonical TensorFlow name of a chain, or None (not a chain, or not TensorFlow)."""
        return self.aliases.tensorflow_name(node)

    def qualified(self, node: ast.AST) -> str | None:
        """The fully qualified dotted name of a chain whatever its library, or None."""
        return self.aliases.qualified(node)

    @cached_property
    def array_names(self) -> frozenset[str]:
        """Names bound to in-memory arrays: results of `numpy.*` calls or of `*.load_data()`."""
        names: set[str] = set()
        for node in self.assignments:
            if isinstance(node, ast.Assign) and self.is_array_expression(node.value, frozenset()):
                for target in node.targets:
                    names.update(_bound_names(target))
        return frozenset(names)

    def is_array_expression(self, node: ast.AST, array_names: frozenset[str] | None = None) -> bool:
        known = self.array_names if array_names is None else array_names
        if isinstance(node, ast.Call):
            parts = dotted_parts(node.func) or []
            if parts and parts[-1] == "load_data":
                return True
            qualified = self.qualified(node.func)
            if qualified is not None:
                return qualified.partition(".")[0] == "numpy"
            return bool(parts) and parts[-1] in ("astype", "reshape")
        if isinstance(node, ast.Name):
            return node.id in known
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.value, ast.Name):
            return node.value.id in known and not isinstance(node, ast.Attribute)
        return False


def _bound_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _bound_names(element)]
    return []


def spelled(node: ast.AST) -> str:
    """A chain as written (`run_context.session.run`), anything else unparsed."""
    parts = dotted_parts(node)
    return ".".join(parts) if parts else ast.unparse(node)
