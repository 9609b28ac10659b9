"""The rule registry, in pyupgrade's shape.

Each module in `migrate/report/rules/` defines one `RULE` and one or more
check functions decorated with `@register(RULE, key, ...)`. Importing every
module of that package (`load_rules`) fills `CHECKS`, a dict from key to the
checks interested in it; the file visitor dispatches through that dict. A key
is one of:

* a node type — an `ast` class, or `HookClass` for the whole-codebase pass;
* for resolved TensorFlow names (`Reference`s, see `migrate.report.context`),
  a canonical name (`"tensorflow.Session"`) or a namespace (`"tensorflow.contrib.*"`);
* `".attr"` for any attribute access `x.attr`, `"arg="` for a keyword argument,
  `".attr()"` for a call of a method of that name (`x.run(...)`: the check gets the `Call`).

Keying by name keeps dispatch to a few dict lookups per node instead of
every rule looking at every node (see `migrate.report.dispatch.dispatch_keys`).

A check is `check(node, context) -> Iterable[(node, message)]`; the visitor
turns each pair into a `Finding` carrying the rule's code.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from migrate.core.plugins import import_all

if TYPE_CHECKING:
    pass

SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "References")
FIXES = ("automatic", "manual")
"""`automatic`: `migrate fix` applies it (read from `migrate.fix.registry`, never declared by the rule)."""
EFFORTS = ("rename", "rewrite", "redesign")
"""`rename`: mechanical; `rewrite`: local code changes; `redesign`: the training loop changes shape."""


class Rule(NamedTuple):
    """A rule: code, kebab-case name, effort class, documentation; checked when registered (`_known`)."""

    code: str
    name: str
    effort: str
    doc: str
    modern_equivalent: str | None = None
    fallback: bool = False
    """Reported only on lines where no other rule reports: a catch-all (the TF1-only API)
    that must not repeat what a rule about the construct already says better. Its checks report on the
    reference they are given (`reference.node`): the analysis skips one whose line is already covered."""
    tf1_code_only: bool = False
    """Reported only when other rules find TF1 code in the scan: a name TF2 has too (`tf.where`) is TF1's
    function only in TF1 code (a file of a TF1 project may use nothing else TF1-only)."""

    @property
    def fix(self) -> str:
        """`automatic` when `migrate fix` has a fix for this rule, else `manual`."""
        from migrate.fix.registry import fix_kind

        return fix_kind(self.code)

    @property
    def fix_scope(self) -> tuple[str, str]:
        """(what `migrate fix` does for this rule, what it leaves to you)."""
        from migrate.fix.registry import fix_scope

        return fix_scope(self.code, self.effort)

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0].strip()

    @property
    def body(self) -> str:
        """The doc without its summary line, as printed by `migrate explain`."""
        lines = self.doc.strip().splitlines()[1:]
        return "\n".join(lines).strip() + "\n"


Message = tuple[ast.AST, str]
Check = Callable[..., Iterable[tuple[Any, str]]]
"""A check as the dispatcher stores it. What it is handed — a node of the key's type and the `FileContext`, a
`Reference` for a name key, a `HookClass` and no context for the whole-codebase pass — and where its findings
point is fixed by the key it is registered under, which no static type can say."""
AnyCheck = TypeVar("AnyCheck", bound=Callable[..., Iterable[tuple[object, str]]])

RULES: dict[str, Rule] = {}
CHECKS: dict[type | str, list[tuple[Rule, Check]]] = {}


def register(rule: Rule, *keys: type | str) -> Callable[[AnyCheck], AnyCheck]:
    """Register `check` for `keys` (node types, canonical names, `namespace.*`) under `rule`."""

    def decorator(check: AnyCheck) -> AnyCheck:
        _known(rule)
        for key in keys:
            CHECKS.setdefault(key, []).append((rule, check))
        return check

    return decorator


def owned_elsewhere(name: str, codes: frozenset[str]) -> bool:
    """A rule outside `codes` registered this very name (`tf.summary.scalar`: TFM510 tells v1 calls from v2 ones)."""
    return any(rule.code not in codes for rule, _ in CHECKS.get(name, ()))


def declare(rule: Rule) -> Rule:
    """Register a rule whose findings come from a whole-codebase pass, not a node check."""
    return _known(rule)


def _known(rule: Rule) -> Rule:
    """`rule`, now in RULES; a second rule with its code or an unknown effort class is an error."""
    if rule.effort not in EFFORTS:
        raise ValueError(f"rule {rule.code}: effort must be one of {EFFORTS}, got {rule.effort!r}")
    known = RULES.setdefault(rule.code, rule)
    if known is not rule:
        raise ValueError(f"rule code {rule.code} is defined twice ({known.name}, {rule.name})")
    return rule


_loaded = False


def load_rules() -> dict[str, Rule]:
    """Import every rule module once; return code → rule, sorted by code."""
    import_rules()
    return dict(sorted(RULES.items()))


def import_rules() -> None:
    """Import every rule module once, so `CHECKS` is filled (what the analysis of each file needs)."""
    global _loaded
    if not _loaded:
        import migrate.report.rules as package

        import_all(package.__name__, package.__path__)
        _loaded = True


@lru_cache(maxsize=1)
def fallback_codes() -> frozenset[str]:
    """The codes of the `Rule.fallback` rules (every rule imported)."""
    return frozenset(code for code, rule in load_rules().items() if rule.fallback)


def rule_for(code_or_name: str) -> Rule | None:
    """Look a rule up by code (`TFM101`) or kebab-case name (`estimator`)."""
    rules = load_rules()
    wanted = code_or_name.strip()
    return rules.get(wanted.upper()) or next((rule for rule in rules.values() if rule.name == wanted.lower()), None)


def matches(code: str, selectors: Iterable[str]) -> bool:
    """Ruff-style prefix selection: `TFM2` selects `TFM201`…`TFM299`."""
    return any(code.startswith(selector.upper()) for selector in selectors)
