"""The `tf.contrib` module tree on TensorFlow 2: lazy modules whose attributes are the registered twins.

`install` sets ``tensorflow.contrib`` and ``tensorflow.compat.v1.contrib`` to
the root module and adds an import hook for ``tensorflow.contrib.…``. An
attribute is looked up on every access (nothing is cached on the modules), so
each use of a twin is recorded where the user's code wrote it.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import traceback
import types
from dataclasses import dataclass
from typing import Any

from migrate.port.contrib.registry import ContribTwin, namespaces, runs, twins
from migrate.port.locations import user_location

ROOT = "tensorflow.contrib"


@dataclass(frozen=True)
class ContribUse:
    """A `tf.contrib` name the user's code used (`path`, below ``tf.contrib``), where, and the twin that ran."""

    path: str
    where: str
    twin: str

    def note(self) -> str:
        return f"`tf.contrib.{self.path}` at {self.where or '<target>'} ran as its TF1-core twin: {self.twin}"


_USES: dict[tuple[str, str], ContribUse] = {}


def recorded_uses() -> list[ContribUse]:
    """The uses recorded since `forget_uses`, in the order first seen (one per name and place)."""
    return list(_USES.values())


def forget_uses() -> None:
    _USES.clear()


def use_notes() -> list[str]:
    """PORT.md's notes: one line per recorded use."""
    return [use.note() for use in recorded_uses()]


def _used(path: str, twin: str, value: Any) -> Any:
    where = user_location(traceback.extract_stack()[:-2])
    _USES.setdefault((path, where), ContribUse(path, where, twin))
    return value


class ContribModule(types.ModuleType):
    """``tensorflow.contrib`` or one of its modules (`contrib_path` below it: ``"layers"``, ``"rnn"``)."""

    def __init__(self, contrib_path: str) -> None:
        super().__init__(f"{ROOT}.{contrib_path}" if contrib_path else ROOT)
        self.contrib_path = contrib_path
        self.__path__: list[str] = []  # a package: `import tensorflow.contrib.layers` looks for its children

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return resolve(self.contrib_path, name)


def module(contrib_path: str) -> ContribModule:
    """The module of a contrib namespace, made once and kept in `sys.modules` (so imports find it)."""
    full = f"{ROOT}.{contrib_path}" if contrib_path else ROOT
    found = sys.modules.get(full)
    if not isinstance(found, ContribModule):
        found = sys.modules[full] = ContribModule(contrib_path)
    return found


def resolve(parent: str, name: str) -> Any:
    """``tf.contrib.<parent>.<name>``: its twin (recorded as used), a namespace module, or an AttributeError."""
    path = f"{parent}.{name}" if parent else name
    registered: ContribTwin | None = twins().get(path)
    if registered is not None and not registered.namespace:
        return _used(path, registered.twin, registered.load())
    if path in namespaces():
        return module(path)
    aliased = twins().get(parent)
    if aliased is not None and runs(path):
        return _used(path, f"{aliased.twin}.{name} (the same object)", getattr(aliased.load(), name))
    owner = f"{ROOT}.{parent}" if parent else ROOT
    raise AttributeError(f"module '{owner}' has no attribute '{name}': tf.contrib.{path} has no TF1-core twin "
                         "that migrate port runs")


class _Loader(importlib.abc.Loader):
    def __init__(self, contrib_path: str) -> None:
        self.contrib_path = contrib_path

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return module(self.contrib_path)

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module's attributes are resolved when read."""


class _Finder(importlib.abc.MetaPathFinder):
    """Finds ``tensorflow.contrib.<namespace>``; any other contrib module is not found (the ImportError names it)."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != ROOT and not fullname.startswith(ROOT + "."):
            return None
        contrib_path = fullname[len(ROOT) + 1:]
        if contrib_path not in namespaces():
            return None
        return importlib.machinery.ModuleSpec(fullname, _Loader(contrib_path), is_package=True)


def install() -> None:
    """Make `tf.contrib` (both spellings of `tf`) and ``import tensorflow.contrib.…`` the twins; idempotent."""
    import tensorflow as tf

    root = module("")
    # `tf.compat.v1` and the module `import tensorflow.compat.v1` gives are two objects on TF 2.16 on: both get it
    for owner in (tf, tf.compat.v1, importlib.import_module("tensorflow.compat.v1")):
        setattr(owner, "contrib", root)  # noqa: B010 - the owners are modules whose stubs have no `contrib`
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
