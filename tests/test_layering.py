"""The import direction between the packages, read from the source with `ast` (nothing is imported).

    legacy, modern ──▶ migrate.core ◀── migrate.scanning ◀── migrate.fix ◀── migrate.report (the scanning side), migrate.parity, …

`migrate.core` is TensorFlow-free and imports nothing else of the project;
`legacy` and `modern` take only `migrate.core` from `migrate`; the scanning
side (`migrate.report`, `migrate.fix`) takes only the core and itself; `migrate` never imports `legacy` or
`modern` — the MNIST pair file (`migrate/pairs/`, loaded by path like any
user's pair, never imported as a module) is the one client that names both.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAIR_FILES = ROOT / "migrate" / "pairs"


def imported_modules(path: Path, *, at_import_time: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a file, relative imports resolved.

    `at_import_time`: only the module body's imports (not those inside functions).
    """
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in tree.body if at_import_time else ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((node.lineno, module))
    return found


def sources(package: str) -> list[Path]:
    return sorted(path for path in (ROOT / package).rglob("*.py") if PAIR_FILES not in path.parents)


def top(module: str, depth: int = 1) -> str:
    return ".".join(module.split(".")[:depth])


def violations(package: str, allowed, *, at_import_time: bool = False) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sources(package)
        for line, module in imported_modules(path, at_import_time=at_import_time)
        if not allowed(module)
    ]


def project_module(module: str, *allowed_packages: str) -> bool:
    """Outside the project, `migrate` itself (its version), or in one of the allowed packages."""
    return top(module) not in {"migrate", "legacy", "modern"} or module == "migrate" or any(
        module == package or module.startswith(package + ".") for package in allowed_packages
    )


def test_core_imports_nothing_else_of_the_project():
    assert violations("migrate/core", lambda module: project_module(module, "migrate.core")) == []


@pytest.mark.parametrize("package", ["migrate/core", "migrate/scanning", "migrate/report", "migrate/fix"])
def test_tensorflow_free_packages_do_not_import_it_at_import_time(package):
    assert violations(package, lambda module: top(module) not in {"tensorflow", "keras"}, at_import_time=True) == []


PAIR_ROLE_PROGRAMS = {
    "legacy/distributed/pair.py": "runs a pair's model_fn (loaded as the parity engine loads a pair) under this cluster recipe",
    "legacy/distributed/estimator.py": "runs a pair's model_fn under train_and_evaluate, as pair.py does in a session",
    "modern/distributed/pair.py": "runs a pair's build_model (weights mapped as the parity engine maps them) under MWMS",
    "modern/distributed/pair_ps.py": "runs a pair's build_model under ParameterServerStrategy, as pair.py does under MWMS",
    "modern/distributed/sidecar.py": "evaluates a pair's build_model on the chief's checkpoints, the Estimator evaluator's twin",
}
"""The one exception to the training sides' layering: the role programs of `migrate parity --workers N` (the MNIST
pair's run or `--pair FILE`'s). They are the cluster recipes of `legacy`/`modern` (so they live here) and use the
engine's pair loading and weight mapping (so they import `migrate.parity`); nothing else in `legacy`/`modern` imports
them."""


@pytest.mark.parametrize("package", ["legacy", "modern"])
def test_training_sides_take_only_the_core_from_migrate(package):
    other = {"legacy": "modern", "modern": "legacy"}[package]

    def allowed(module: str) -> bool:
        return top(module) != other and project_module(module, "migrate.core", package)

    found = violations(package, allowed)
    assert [line for line in found if line.split(":")[0] not in PAIR_ROLE_PROGRAMS] == []
    exempt = [line for line in found if line.split(":")[0] in PAIR_ROLE_PROGRAMS]
    assert all(" imports migrate.parity" in line for line in exempt), exempt


def test_nothing_in_the_training_sides_imports_the_pair_role_programs():
    modules = {path.removesuffix(".py").replace("/", ".") for path in PAIR_ROLE_PROGRAMS}
    for package in ("legacy", "modern"):
        found = [line for line in violations(package, lambda module: module not in modules)
                 if line.split(":")[0] not in PAIR_ROLE_PROGRAMS]
        assert found == [], found


LAYERS = {
    "migrate/scanning": ("migrate.core", "migrate.scanning"),
    "migrate/fix": ("migrate.core", "migrate.scanning", "migrate.fix"),
    "migrate/report": ("migrate.core", "migrate.scanning", "migrate.fix", "migrate.report"),
}
"""The scanning side, TF-free, in layers with no circle between the packages: the shared scanning layer
(sources, names, alias tables), then `migrate fix` on it, then `migrate report` (which reads fix's
registry to mark rules automatic). Fix builds on the shared layer, never on the report."""


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_the_scanning_side_takes_only_the_layers_below_it(package):
    assert violations(package, lambda module: project_module(module, *LAYERS[package])) == []


def test_migrate_imports_neither_legacy_nor_modern():
    assert violations("migrate", lambda module: top(module) not in {"legacy", "modern"}) == []


def test_the_walk_sees_the_imports():
    """Guard against tests that pass because they read nothing."""
    recorder = imported_modules(ROOT / "legacy" / "hooks" / "event_recorder.py")
    assert any(module == "migrate.core.protocol" for _, module in recorder)
    scanner = imported_modules(ROOT / "migrate" / "report" / "scanner.py")
    assert any(module.startswith("migrate.report.") for _, module in scanner)
    assert not project_module("legacy.model") and not project_module("migrate.parity", "migrate.core")
