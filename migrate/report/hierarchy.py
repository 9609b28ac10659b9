"""The whole-codebase pass: which classes are SessionRunHooks, and what they become.

Runs after every file is analysed. Classes are indexed by module (each file
under every dotted name it may be imported by); a base is resolved through
the importing file's alias table, then through the target module's own
imports (re-exports), across files and packages. A class is a hook when a
chain of bases ends in a TensorFlow `*Hook` class: `SessionRunHook` itself or
a built-in hook such as `LoggingTensorHook`. When the scanned tree is
TensorFlow itself, its own `SessionRunHook` definition is recognised by its
canonical name.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from migrate.core.hook_map import HookEquivalent
from migrate.core.protocol import PHASES, TF1_TO_KERAS
from migrate.report.classes import PROTOCOL_METHODS
from migrate.report.model import ClassInfo, FileResult, Finding
from migrate.report.phases import method_text
from migrate.scanning.api_tree import builtin_hook_methods
from migrate.scanning.names import canonical, display, is_tensorflow

HOOK_ROOTS = frozenset({"tensorflow.train.SessionRunHook", "tensorflow.estimator.SessionRunHook"})




class HookMethod(NamedTuple):
    name: str
    defined_in: str
    path: str
    line: int
    callbacks: tuple[str, ...]

    @property
    def callback(self) -> str:
        return self.callbacks[0]


class HookClass(NamedTuple):
    """A SessionRunHook subclass found in the scanned code (built whole by `find_hooks`)."""

    path: str
    module: str
    qualname: str
    line: int
    column: int
    cell: int | None
    chain: list[str]
    tensorflow_base: str
    methods: list[HookMethod]
    tensorflow_bases: list[str]
    """Every TensorFlow hook class it derives from, through any base (several with multiple inheritance)."""
    equivalents: list[HookEquivalent]
    """The replacement of each built-in hook base that has one."""
    findings: list[Finding]
    """Findings of the `MethodBody` checks on its own protocol methods (kept because it is a hook)."""
    equivalent: HookEquivalent | None
    phases: tuple[str, ...]
    """Where the code passes instances (`migrate.report.phases`); empty when unknown."""
    ancestry: list[tuple[str, str, str]]
    """(path, module, qualname) of the class and its in-repo bases, MRO-like (own first)."""

    @property
    def name(self) -> str:
        return self.qualname.rpartition(".")[2]

    @property
    def full_name(self) -> str:
        return f"{self.module}.{self.qualname}" if self.module else self.qualname

    @property
    def phase_text(self) -> str:
        """`evaluate, predict`, or `unknown (train assumed)` when the code never passes the hook anywhere we see."""
        return ", ".join(self.phases) if self.phases else "unknown (train assumed)"

    def keras_method(self, method: HookMethod) -> str:
        """What `method` becomes in the phases the hook runs in: `on_test_begin / on_predict_begin`."""
        return method_text(method.name, self.phases)


Key = tuple[str, str]


class ClassIndex:
    """All classes of the scanned files, resolvable by dotted name."""

    def __init__(self, results: Iterable[FileResult]) -> None:
        self.modules: dict[str, FileResult] = {}
        self.classes: dict[Key, tuple[FileResult, ClassInfo]] = {}
        for result in results:
            if result.skipped:
                continue
            if result.module in result.module_names:  # its own name first, then the suffixes in order
                self.modules.setdefault(result.module, result)
            for name in result.module_names:
                self.modules.setdefault(name, result)
            for info in result.classes:
                self.classes.setdefault((result.module, info.qualname), (result, info))
        self._hook_bases: dict[Key, tuple[str, list[str]] | None] = {}
        self._resolved: dict[str, Key | str | None] = {}

    def resolve(self, dotted: str) -> Key | str | None:
        """A codebase class key, a canonical TensorFlow name, or None when unknown; each name resolved once
        (tensor2tensor's 2,000 class calls and bases name a few hundred classes)."""
        if dotted not in self._resolved:
            self._resolved[dotted] = self._resolve(dotted)
        return self._resolved[dotted]

    def _resolve(self, dotted: str, depth: int = 0) -> Key | str | None:
        if depth > 12:
            return None
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            result = self.modules.get(".".join(parts[:cut]))
            if result is None:
                continue
            key = (result.module, ".".join(parts[cut:]))
            if key in self.classes:
                return key
            imported = result.exports.get(parts[cut])
            if imported is not None:
                target = ".".join([imported, *parts[cut + 1:]])
                if target != dotted:
                    return self._resolve(target, depth + 1)
            break
        return canonical(dotted) if is_tensorflow(dotted) else None

    def hook_base(self, key: Key) -> tuple[str, list[str]] | None:
        """(canonical TensorFlow hook it derives from, the chain of bases), or None."""
        if key in self._hook_bases:
            return self._hook_bases[key]
        self._hook_bases[key] = None
        _, info = self.classes[key]
        found = None
        for base in info.bases:
            target = self.resolve(base) if base else None
            if isinstance(target, str):
                if is_hook_name(target):
                    found = (target, [display(target)])
            elif target is not None:
                own_name = canonical(f"{target[0]}.{target[1]}")
                if own_name in HOOK_ROOTS:
                    found = (own_name, [display(own_name)])
                else:
                    inherited = self.hook_base(target)
                    if inherited is not None:
                        found = (inherited[0], [target[1], *inherited[1]])
            if found is not None:
                break
        self._hook_bases[key] = found
        return found

    def protocol_methods(self, key: Key) -> list[HookMethod]:
        """Overridden protocol methods, own first then inherited within the codebase (MRO-like)."""
        seen: dict[str, HookMethod] = {}
        for result, info in self._ancestry(key):
            for name in PROTOCOL_METHODS:
                method = info.methods.get(name)
                if method is not None and name not in seen:
                    seen[name] = HookMethod(name, info.qualname, result.path, method.line, TF1_TO_KERAS[name])
        for base in self.tensorflow_hook_bases(key):
            for name in builtin_hook_methods(base):
                if name not in seen:
                    seen[name] = HookMethod(name, display(base), "", 0, TF1_TO_KERAS[name])
        return [seen[name] for name in PROTOCOL_METHODS if name in seen]

    def tensorflow_hook_bases(self, key: Key) -> list[str]:
        """The TensorFlow hook classes a class derives from through any of its bases, in MRO-like order."""
        found: list[str] = []
        for _, info in self._ancestry(key):
            for base in info.bases:
                target = self.resolve(base) if base else None
                if isinstance(target, tuple):
                    target = canonical(f"{target[0]}.{target[1]}") if canonical(f"{target[0]}.{target[1]}") in HOOK_ROOTS else None
                if isinstance(target, str) and (is_hook_name(target) or target in HOOK_ROOTS) and target not in found:
                    found.append(target)
        specific = [name for name in found if name not in HOOK_ROOTS]
        return specific or found[:1]

    def _ancestry(self, key: Key) -> list[tuple[FileResult, ClassInfo]]:
        order: list[tuple[FileResult, ClassInfo]] = []
        visited: set[Key] = set()
        pending = [key]
        while pending:
            current = pending.pop(0)
            if current in visited or current not in self.classes:
                continue
            visited.add(current)
            result, info = self.classes[current]
            if canonical(f"{current[0]}.{current[1]}") in HOOK_ROOTS:
                continue
            order.append((result, info))
            for base in info.bases:
                target = self.resolve(base) if base else None
                if isinstance(target, tuple):
                    pending.append(target)
        return order


def _phases_by_class(index: ClassIndex, results: list[FileResult]) -> dict[Key, set[str]]:
    found: dict[Key, set[str]] = {}
    for result in results:
        for name, phase in result.hook_passes:
            key = index.resolve(name)
            if isinstance(key, tuple):
                found.setdefault(key, set()).add(phase)
    return found


def is_hook_name(name: str) -> bool:
    return name.startswith("tensorflow.") and name.rpartition(".")[2].endswith("Hook")


def find_hooks(results: list[FileResult], equivalents: dict[str, HookEquivalent]) -> list[HookClass]:
    """Every SessionRunHook subclass in `results`, sorted by file and line."""
    index = ClassIndex(results)
    phases = _phases_by_class(index, results)
    hooks = []
    for key, (result, info) in index.classes.items():
        base = index.hook_base(key)
        if base is None:
            continue
        tensorflow_base, chain = base
        tensorflow_bases = index.tensorflow_hook_bases(key) or [tensorflow_base]
        replacements = [equivalents[name.rpartition(".")[2]] for name in tensorflow_bases if name.rpartition(".")[2] in equivalents]
        method_findings = sorted(finding for method in info.methods.values() for finding in method.findings)
        hooks.append(
            HookClass(
                path=result.path,
                module=result.module,
                qualname=info.qualname,
                line=info.line,
                column=info.column,
                cell=info.cell,
                chain=chain,
                tensorflow_base=tensorflow_base,
                methods=index.protocol_methods(key),
                findings=method_findings,
                equivalent=equivalents.get(tensorflow_base.rpartition(".")[2]),
                tensorflow_bases=tensorflow_bases,
                equivalents=list({entry.hook: entry for entry in replacements}.values()),
                phases=tuple(phase for phase in PHASES if phase in phases.get(key, ())),
                ancestry=[(owner.path, owner.module, base.qualname) for owner, base in index._ancestry(key)],
            )
        )
    return sorted(hooks, key=lambda hook: (hook.path, hook.cell or 0, hook.line, hook.qualname))


class HookInstantiation(NamedTuple):
    """A call that creates an in-repo SessionRunHook subclass (`MyHook(...)`), in any file."""

    hook: HookClass
    path: str
    cell: int | None
    line: int
    column: int
    spelling: str


def find_hook_instantiations(results: list[FileResult], hooks: list[HookClass]) -> list[HookInstantiation]:
    """Every call site of the hook classes found, resolved through each file's imports."""
    if not hooks or not any(result.class_calls for result in results):
        return []
    index = ClassIndex(results)
    by_key = {(hook.module, hook.qualname): hook for hook in hooks}
    found = []
    for result in results:
        for qualified, cell, line, column, spelling in result.class_calls:
            key = index.resolve(qualified)
            hook = by_key.get(key) if isinstance(key, tuple) else None
            if hook is not None:
                found.append(HookInstantiation(hook, result.path, cell, line, column, spelling))
    return found

