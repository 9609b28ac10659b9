"""The fix registry: one `Fix` per rule that `migrate fix` applies.

Each module in `migrate/fix/rules/` defines one `FIX` (the rule code, what the
fix does and what it leaves alone, and the `ModuleMove`s it applies); loading
imports every module of that package. Whether a rule is `automatic` in
`migrate report`, `migrate rules` and `migrate explain` is read from here, so
the marker cannot claim a fix that does not exist. Every other rule is
`manual`, and `manual.py` says why `migrate fix` leaves it alone.

Standard library only: the report imports this module, LibCST is imported by
`migrate.fix.module_moves` when files are actually rewritten.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

from migrate.core.plugins import import_all


class Use(Protocol):
    """One use of a moved module — `module.member`, maybe called — as a rule's `decide` sees it.

    Two movers implement it: `migrate.fix.fast_moves.Use` on Python's AST and
    `migrate.fix.module_moves.Use` on LibCST's tree, so the syntax nodes it hands
    out (`call`, `argument`, the `expression` given to `is_member_use`) are of
    either kind: `decide` only compares them to None or passes them back.
    """

    code: str
    insert_first_argument: str | None
    """Set by `decide` to pass a name as the call's new first argument (`tf.app.run()` → `app.run(main)`)."""

    @property
    def member(self) -> str | None: ...
    @property
    def call(self) -> Any: ...
    @property
    def spelling(self) -> str: ...
    @property
    def line(self) -> int: ...
    def has_star_arguments(self) -> bool: ...
    def argument(self, position: int, keyword: str) -> Any: ...
    def is_member_use(self, expression: Any, members: frozenset[str]) -> bool: ...
    def enclosing_call(self) -> tuple[str, int | None, str | None] | None: ...
    def module_defines_function(self, name: str) -> bool: ...


Decide = Callable[[Use], "str | None"]
"""A use of a moved module → None to rewrite it, or the reason it is left as is."""


def any_use(use: Use) -> str | None:
    return None


class ModuleMove(NamedTuple):
    """Uses of TensorFlow module `source` (a canonical name) become uses of `target`.

    `target` is `(package, name)`: the fix imports `from package import name`
    and rewrites `tf.compat.v1.logging.info` to `logging.info`. A binding of
    `source` (`from tensorflow.compat.v1 import flags`, `flags = tf.app.flags`)
    becomes that import under the same local name. `decide` vets every use;
    `renamed_keywords` renames keyword arguments of calls through the module.
    """

    source: str
    target: tuple[str, str]
    decide: Decide = any_use
    renamed_keywords: Mapping[str, str] = MappingProxyType({})


class Fix(NamedTuple):
    code: str
    will: str
    will_not: str
    moves: tuple[ModuleMove, ...]


FIXES: dict[str, Fix] = {}


def register(fix: Fix) -> Fix:
    known = FIXES.setdefault(fix.code, fix)
    if known is not fix:
        raise ValueError(f"rule {fix.code} has two fixes")
    return fix


_loaded = False


def load_fixes() -> dict[str, Fix]:
    """Import every fix module once; return rule code → fix."""
    _load()
    return dict(sorted(FIXES.items()))


def _load() -> None:
    global _loaded
    if not _loaded:
        import migrate.fix.rules as package

        import_all(package.__name__, package.__path__)
        _loaded = True


def module_leaves(fixes: Mapping[str, Fix]) -> frozenset[str]:
    """The last names the moved modules of `fixes` are spelled with (`logging`, `flags`, `app`, `tf_logging`)."""
    from migrate.scanning.names import PRIVATE_MODULES

    sources = {move.source for fix in fixes.values() for move in fix.moves}
    leaves = {source.rpartition(".")[2] for source in sources}
    leaves.update(private.rpartition(".")[2] for private, public in PRIVATE_MODULES.items() if public in sources)
    return frozenset(leaves)


def fix_leaves() -> frozenset[str]:
    """The last names of everything a fix rewrites (`logging`, `flags`, `app`, and each renamed TF1 name's,
    `log`, `random_normal`, …): a file that spells none of them has nothing to fix."""
    from migrate.scanning.tf1_api import changed_arguments, tf1_only

    leaves = set(module_leaves(load_fixes()))
    if "TFM513" in FIXES:
        leaves.update(entry.name.rpartition(".")[2] for entry in tf1_only().values() if entry.kind == "rename")
    if "TFM515" in FIXES:
        leaves.update(
            entry.name.rpartition(".")[2] for entry in tf1_only().values()
            if entry.kind == "moved" and entry.name.startswith("tensorflow.gfile.")
        )
    if "TFM516" in FIXES:
        leaves.update(
            keyword for entry in changed_arguments().values() for keyword, (_, valid) in entry.removed.items() if valid
        )
    return frozenset(leaves)


def fix_kind(code: str) -> str:
    """`automatic` when `migrate fix` applies a fix for the rule, else `manual` (called per finding)."""
    _load()
    return "automatic" if code in FIXES else "manual"


def fix_scope(code: str, effort: str) -> tuple[str, str]:
    """(what `migrate fix` does for the rule, what it leaves to you)."""
    fix = load_fixes().get(code)
    if fix is not None:
        return fix.will, fix.will_not
    from migrate.fix.manual import why_manual

    return "nothing: the code is left as is and the finding stays", f"rewrite it, because {why_manual(code, effort)}"
