"""`dev.py`: its environments come from pyproject.toml, and the committed locks satisfy them."""
from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def dev():
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _pins(lock: Path) -> dict[str, str]:
    pins = {}
    for line in lock.read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"{lock.name}: {line!r} is not an exact pin"
            pins[name.lower().replace("_", "-")] = version
    return pins


def test_supported_python_is_declared_once_and_true():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11"
    assert sys.version_info >= (3, 11)


@pytest.mark.parametrize("name", ["tf215", "tf221"])
def test_every_direct_requirement_is_pinned_in_the_lock_within_its_range(dev, name):
    environment = dev.ENVIRONMENTS[name]
    pins = _pins(environment.lock)
    requirements = [Requirement(text) for text in environment.direct_requirements()]
    assert requirements, "pyproject.toml gives this environment no requirements"
    for requirement in requirements:
        key = requirement.name.lower().replace("_", "-")
        assert key in pins, f"{environment.lock.name} does not pin {requirement.name}; run python3 dev.py lock {name}"
        assert requirement.specifier.contains(pins[key], prereleases=True), (
            f"{environment.lock.name} pins {key}=={pins[key]}, outside pyproject.toml's {requirement}"
        )


@pytest.mark.parametrize("name", ["tf215", "tf221"])
def test_lock_header_names_the_command_that_compiles_it(dev, name):
    environment = dev.ENVIRONMENTS[name]
    assert environment.lock.read_text().startswith(environment.lock_header())
    assert f"python3 dev.py lock {name}" in environment.lock_header()


def test_lint_configuration_selects_the_promised_rule_families():
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert {"F", "UP", "I", "B"} <= set(lint["select"])


def test_the_tf215_parts_run_every_test_file_once(dev):
    """A part runs its paths but the `--ignore`d ones; every test file of the suite must fall in exactly one part."""
    lanes = dev.tf215_lanes(Path(sys.executable), {})

    def runs(lane, path: Path) -> bool:
        arguments = lane.arguments[1:]
        ignored = [ROOT / argument.removeprefix("--ignore=") for argument in arguments if argument.startswith("--ignore=")]
        named = [ROOT / argument for argument in arguments if not argument.startswith("-")]
        return any(path.is_relative_to(part) for part in named) and not any(path.is_relative_to(skip) for skip in ignored)

    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if "fixtures" in path.parts or "sample" in path.parts:
            continue
        assert sum(runs(lane, path) for lane in lanes) == 1, path.relative_to(ROOT)


def test_lanes_a_filter_selects_nothing_in_are_no_failure_unless_it_selects_nothing_anywhere(dev):
    """`dev.py test -k NAME` runs every lane with the filter; those it empties exit with pytest's code 5."""
    assert dev.NO_TESTS_COLLECTED == pytest.ExitCode.NO_TESTS_COLLECTED
    lanes = ["parity part", "modern part", "TF 2.21"]
    codes = {"lint": 0, "parity part": 5, "modern part": 0, "TF 2.21": 1}
    assert dev.selected_nothing_is_no_failure(codes, lanes) == {"lint": 0, "parity part": 0, "modern part": 0, "TF 2.21": 1}
    nowhere = {"lint": 0, **dict.fromkeys(lanes, 5)}
    assert dev.selected_nothing_is_no_failure(nowhere, lanes) == nowhere
