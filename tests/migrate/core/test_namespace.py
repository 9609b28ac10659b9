"""From a directory holding its own `legacy/` and `modern/` packages, the toolkit still imports its own."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.core.namespace import ROLE_PATH_ENV, TOOLKIT_ROOT

IMPOSTOR = "raise SystemExit('the user\\'s own {name} package was imported')\n"


@pytest.fixture
def user_project(tmp_path: Path) -> Path:
    for name in ("legacy", "modern"):
        (tmp_path / name / "callbacks").mkdir(parents=True)
        (tmp_path / name / "__init__.py").write_text(IMPOSTOR.format(name=name))
    (tmp_path / "taken").write_text("a file, not a directory\n")
    return tmp_path


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, timeout=120)


def test_python_m_migrate_parity_does_not_take_the_users_packages(user_project: Path) -> None:
    """`--out` onto a file stops the run right after the namespace check: an impostor would be named first."""
    completed = _run([sys.executable, "-m", "migrate", "parity", "--out", "taken"], user_project,
                     {"PYTHONPATH": str(TOOLKIT_ROOT)})
    assert completed.returncode == 2, completed.stderr
    assert "--out taken exists and is not a directory" in completed.stderr and "shadows" not in completed.stderr


def test_a_shadowing_package_on_the_path_is_a_usage_error(user_project: Path) -> None:
    completed = _run([sys.executable, "-m", "migrate", "parity", "--out", "taken"], user_project,
                     {"PYTHONPATH": os.pathsep.join([str(user_project), str(TOOLKIT_ROOT)])})
    assert completed.returncode == 2
    assert f"`legacy` resolves to {user_project / 'legacy'}" in completed.stderr and "shadows the toolkit's" in completed.stderr


def test_the_hook_map_is_the_toolkits(user_project: Path) -> None:
    completed = _run([sys.executable, "-m", "migrate", "hooks"], user_project, {"PYTHONPATH": str(TOOLKIT_ROOT)})
    assert completed.returncode == 0 and "StopAtStepHook" in completed.stdout


def test_role_processes_import_the_toolkit_from_a_users_directory(user_project: Path) -> None:
    """The environment the cluster gives every role (`python -m legacy.distributed.pair ...`)."""
    completed = _run([sys.executable, "-c", "import legacy, modern; print(legacy.__file__); print(modern.__file__)"],
                     user_project, ROLE_PATH_ENV)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split() == [str(TOOLKIT_ROOT / "legacy" / "__init__.py"),
                                        str(TOOLKIT_ROOT / "modern" / "__init__.py")]
