"""The toolkit's own `legacy` and `modern` packages, never a user's packages of the same names.

The wheel installs top-level `legacy` and `modern` beside `migrate`. A user's
project may hold its own `legacy/` directory: `python -m migrate` puts the
working directory first on `sys.path`, and the distributed role programs
(`python -m legacy.distributed.pair`) would do the same in their own
processes. So:

- `python -m migrate` drops the working directory from the front of
  `sys.path` (`isolate_main_path`; the `migrate` console script never adds it),
  unless it is the toolkit's own directory (a source checkout);
- role processes run with `PYTHONSAFEPATH=1` (no working directory on their
  path) and `PYTHONPATH` set to the toolkit's directory (`ROLE_PATH_ENV`);
- the built-in pair checks where `legacy` and `modern` resolve before it
  imports them (`check_toolkit_packages`) and refuses a shadowing package with
  a usage error that names it, instead of training someone else's code.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

TOOLKIT_ROOT = Path(__file__).resolve().parents[2]
"""The directory holding `migrate`, `legacy` and `modern` (site-packages for a wheel, the checkout otherwise)."""
PACKAGES = ("legacy", "modern")
ROLE_PATH_ENV = {"PYTHONSAFEPATH": "1", "PYTHONPATH": str(TOOLKIT_ROOT)}
"""Environment for child processes that import the toolkit by `-m`: its directory, not theirs."""


def isolate_main_path() -> None:
    """Drop the working directory `python -m` put first on `sys.path`, unless it is the toolkit's own."""
    if not sys.path or sys.path[0] not in ("", os.getcwd()):
        return
    first = Path(sys.path[0] or os.getcwd()).resolve()
    if first != TOOLKIT_ROOT:
        del sys.path[0]


def package_origin(name: str) -> Path | None:
    """Where `import name` would load the package from (without importing it), or None if it cannot."""
    module = sys.modules.get(name)
    file = getattr(module, "__file__", None)
    if module is not None and file:
        return Path(file).resolve().parent
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]).resolve()


def shadowed_packages() -> dict[str, Path]:
    """`legacy`/`modern` packages that resolve somewhere other than the toolkit's directory."""
    found = {}
    for name in PACKAGES:
        origin = package_origin(name)
        if origin is not None and origin != TOOLKIT_ROOT / name:
            found[name] = origin
    return found


def check_toolkit_packages() -> None:
    """A usage error when a user's `legacy` or `modern` package would be imported instead of the toolkit's."""
    from migrate.core.cli import UsageError

    shadowed = shadowed_packages()
    if shadowed:
        where = "; ".join(f"`{name}` resolves to {path}, not {TOOLKIT_ROOT / name}" for name, path in shadowed.items())
        raise UsageError(
            f"{where}: a package of yours shadows the toolkit's. Run from another directory, or take that "
            "directory off PYTHONPATH"
        )
