"""A pair: one Python module naming both sides of a migration (TensorFlow-free until a side runs).

The pair contract — every name a pair file may define — is `migrate.parity.contract.CONTRACT`
(printed by `migrate parity --help`, generated into docs/reference/pair.md).

A pair is loaded from a file path (`load_pair`) or taken from an imported
module or plain functions (`pair_from`). Every user function is called
through `Pair.call`, which turns an exception into a `PairError` naming the
file, the function and what to do.
"""
from __future__ import annotations

import importlib.util
import sys
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from migrate.core.cli import UsageError
from migrate.core.protocol import Event
from migrate.parity.contract import (
    BY_NAME,
    FUNCTION,
    OPTIONAL_FUNCTIONS,
    OPTIONAL_VALUES,
    REQUIRED,
    VALUE,
    half_twins,
    required_usage,
)
from migrate.parity.read_params import with_entries

BUILTIN_PAIRS = {"mnist": Path(__file__).resolve().parents[1] / "pairs" / "mnist.py"}
"""Pairs shipped with the package, by name (`--pair mnist` is the default)."""


class PairError(UsageError, ValueError):
    """The pair cannot be used: it does not import, lacks a name, or one of its functions failed (exit code 2)."""


@dataclass
class Pair:
    """Both sides of one migration, as the parity engine calls them."""

    name: str
    origin: str
    functions: dict[str, Callable[..., Any]]
    values: dict[str, Any] = field(default_factory=dict)

    def has(self, name: str) -> bool:
        return _in_contract(name, FUNCTION) in self.functions

    def value(self, name: str, default: Any = None) -> Any:
        return self.values.get(_in_contract(name, VALUE), default)

    def call(self, name: str, *args: Any) -> Any:
        """Call the pair's function `name`; any exception becomes a `PairError` that names it."""
        function = self.functions[_in_contract(name, FUNCTION)]
        try:
            return function(*args)
        except PairError:
            raise
        except Exception as error:
            where = _innermost_user_frame(error, self.origin)
            arguments = ", ".join("params" if isinstance(arg, Mapping) else type(arg).__name__ for arg in args)
            raise PairError(
                f"{self.origin}: {name}({arguments}) raised {type(error).__name__}: {error}{where}. "
                f"Fix {name} in the pair file (run it alone to see the full traceback)."
            ) from error

    def scenarios(self, side: str, params: dict[str, Any], names: tuple[str, ...], progress: Callable[[str], None],
                  argument: Any) -> dict[str, list[Event]]:
        """The events of the pair's `<side>_scenarios(params, argument)` by scenario, for the `names` asked for
        (params["scenarios"]); none when the pair has no such function."""
        function = f"{side}_scenarios"
        if not self.has(function) or not names:
            return {}
        progress(f"  {side} scenarios: {', '.join(names)}")
        events = self.call(function, with_entries(params, scenarios=list(names)), argument)
        return {name: events[name] for name in names if name in events}

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.value("PARAMS") or {})

    @property
    def has_eval(self) -> bool:
        return self.has("eval_input_fn") and self.has("eval_dataset")

    @property
    def has_serving(self) -> bool:
        return self.has("serving_input_receiver_fn") and self.has("serving_signatures")


def _in_contract(name: str, kind: str) -> str:
    """`name`, if the contract lists it as a `kind`: the engine reads no name the contract does not write down
    (`pair_from` would never have kept it, so the read would find nothing, silently)."""
    entry = BY_NAME.get(name)
    if entry is None or entry.kind != kind:
        raise KeyError(f"{name!r} is not a {kind} of the pair contract: add it to migrate/parity/contract.py first")
    return name


def _innermost_user_frame(error: BaseException, origin: str) -> str:
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == origin]
    return f" (at line {frames[-1].lineno}: {frames[-1].line})" if frames else ""


def _check(pair: Pair) -> Pair:
    missing = [name for name in REQUIRED if name not in pair.functions]
    if missing:
        raise PairError(
            f"{pair.origin} lacks {', '.join(missing)}: a pair defines {required_usage()} (see `migrate parity --help`)."
        )
    for given, lacking in half_twins(set(pair.functions)):
        raise PairError(f"{pair.origin} defines {given.name} but not {lacking.name} ({lacking.meaning.replace('`', '')}): "
                        "the two are compared side by side; define both, or neither.")
    params = pair.value("PARAMS")
    if params is not None and not isinstance(params, Mapping):
        raise PairError(f"{pair.origin}: PARAMS is a {type(params).__name__}; it must be a dict.")
    variable_map = pair.value("variable_map")
    if variable_map is not None and not (isinstance(variable_map, Mapping) or callable(variable_map)):
        raise PairError(f"{pair.origin}: variable_map is a {type(variable_map).__name__}; give a dict or a callable.")
    return pair


def pair_from(source: ModuleType | Mapping[str, Any], name: str | None = None, origin: str | None = None) -> Pair:
    """A pair from an imported module or a mapping of names (e.g. ``dict(model_fn=..., ...)``)."""
    namespace = vars(source) if isinstance(source, ModuleType) else dict(source)
    module_file = namespace.get("__file__")
    origin = origin or (str(Path(module_file).resolve()) if module_file else "<pair>")
    functions = {key: namespace[key] for key in (*REQUIRED, *OPTIONAL_FUNCTIONS) if callable(namespace.get(key))}
    for key in (*REQUIRED, *OPTIONAL_FUNCTIONS):
        if key in namespace and key not in functions:
            raise PairError(f"{origin}: {key} must be a function, got {type(namespace[key]).__name__}.")
    values = {key: namespace[key] for key in OPTIONAL_VALUES if namespace.get(key) is not None}
    default_name = Path(origin).stem if module_file else "pair"
    return _check(Pair(name or namespace.get("__name__", default_name) or default_name, origin, functions, values))


def resolve(spec: str | Path) -> Path:
    """A built-in pair name or a path to a pair file."""
    if str(spec) in BUILTIN_PAIRS:
        return BUILTIN_PAIRS[str(spec)]
    path = Path(spec)
    if not path.is_file():
        names = ", ".join(BUILTIN_PAIRS)
        raise PairError(f"no pair file at {path}; pass a path to a .py file or a built-in pair ({names}).")
    return path.resolve()


def load_pair(spec: str | Path) -> Pair:
    """Import a pair file by path (its directory goes on sys.path, so it can import its neighbours)."""
    path = resolve(spec)
    module_name = f"migrate_pair_{path.stem}_{abs(hash(str(path))) & 0xFFFF:x}"
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise PairError(f"{path} cannot be loaded as a Python module; a pair file is a .py file.")
    module = importlib.util.module_from_spec(module_spec)
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    sys.modules[module_name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:
        sys.modules.pop(module_name, None)
        where = _innermost_user_frame(error, str(path))
        raise PairError(
            f"{path} does not import: {type(error).__name__}: {error}{where}. Fix the pair file (try `python {path}`)."
        ) from error
    return pair_from(module, name=_pair_name(spec, path), origin=str(path))


def _pair_name(spec: str | Path, path: Path) -> str:
    """How reports name a pair: a built-in's name, a file's stem, or its folder for the usual `<folder>/pair.py`."""
    if str(spec) in BUILTIN_PAIRS:
        return str(spec)
    return path.parent.name if path.stem == "pair" and path.parent.name else path.stem
