"""The `tf.contrib` twins: one record per contrib name, collected from the family modules' `TWINS`."""
from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from migrate.core.plugins import module_names

_NOT_FAMILIES = frozenset({"namespace", "registry"})


@dataclass(frozen=True)
class ContribTwin:
    """A `tf.contrib` name (`path`, below ``tf.contrib``) and the TF1-core object that runs in its place.

    `load` returns the twin when the name is first used (TensorFlow and its
    estimator are imported then, not when the registry is read). `twin` says
    what it is in TF1-core words, for PORT.md. A `namespace` twin is a module
    each of whose attributes is the twin of the contrib name below `path`
    (``tf.contrib.data.X`` is ``tf.data.experimental.X``), unless a name of its
    own is registered below it.
    """

    path: str
    load: Callable[[], Any]
    twin: str
    namespace: bool = False


@functools.cache
def twins() -> dict[str, ContribTwin]:
    """Every registered twin by its contrib path."""
    package = importlib.import_module("migrate.port.contrib")
    found: dict[str, ContribTwin] = {}
    for name in module_names(package.__path__):
        if name not in _NOT_FAMILIES:
            for twin in getattr(importlib.import_module(f"migrate.port.contrib.{name}"), "TWINS", ()):
                found[twin.path] = twin
    return found


@functools.cache
def namespaces() -> frozenset[str]:
    """The contrib paths that are modules: every proper prefix of a twin's path, and the namespace twins."""
    paths = {""}
    for path, twin in twins().items():
        parts = path.split(".")
        paths.update(".".join(parts[:end]) for end in range(1, len(parts)))
        if twin.namespace:
            paths.add(path)
    return frozenset(paths)


def runs(path: str) -> bool:
    """Whether ``tf.contrib.<path>`` is a twin, a namespace, or a name of a namespace twin's module."""
    if path in twins() or path in namespaces():
        return True
    parent, _, name = path.rpartition(".")
    aliased = twins().get(parent)
    return aliased is not None and aliased.namespace and hasattr(aliased.load(), name)
