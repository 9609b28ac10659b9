"""The two registries of `migrate port`, filled by importing every module of a package (one unit per file).

* porters (`migrate/port/porters/`): each module defines ``PORTER = Porter(...)``,
  one per kind of target (a traced `model_fn`; canned estimators). The first
  porter, by ``priority``, whose `claims(target)` is true ports the target.
* twins (`migrate/port/twins/`): each module defines ``TWIN = Twin(...)``, one per
  TF1 idiom (dense, conv, pooling, dropout, …): `match(op, graph_view)` claims
  the op (and the ops that follow it in the idiom) and says what Keras code it
  becomes. Twins are tried by ``priority`` (lower first); an op no twin claims
  is kept as a TensorFlow op when `migrate.port.ops` knows it, else refused.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from migrate.core.plugins import module_names
from migrate.port.records import Port
from migrate.port.target import Target

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Porter:
    """Ports one kind of target into a `Port` (or raises `PortRefused` listing every problem)."""

    name: str
    claims: Callable[[Target], bool]
    port: Callable[[Target, Progress], Port]
    priority: int = 100


@dataclass(frozen=True)
class Twin:
    """A TF1 idiom and its Keras twin: `match(op, view)` returns a `migrate.port.graph.Claim` or None."""

    name: str
    match: Callable[[Any, Any], Any]
    priority: int = 100


def _collect(package: str, attribute: str) -> list:
    module = importlib.import_module(package)
    found = []
    for name in module_names(module.__path__):
        unit = getattr(importlib.import_module(f"{package}.{name}"), attribute, None)
        if unit is not None:
            found.append(unit)
    return sorted(found, key=lambda unit: (unit.priority, unit.name))


def porters() -> list[Porter]:
    return _collect("migrate.port.porters", "PORTER")


def twins() -> list[Twin]:
    return _collect("migrate.port.twins", "TWIN")


def porter_for(target: Target) -> Porter:
    for porter in porters():
        if porter.claims(target):
            return porter
    raise LookupError(f"no porter claims {target.spec}")
