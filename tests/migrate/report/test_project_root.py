"""Hierarchies from the project root: `migrate report pkg/` resolves `from pkg.base import BaseHook`, and a
pre-commit run on one staged file still sees that its class derives from an in-repo hook in an unstaged file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from migrate.cli import main

BASE = """\
import tensorflow as tf


class BaseHook(tf.train.SessionRunHook):
    def begin(self):
        self.count = 0
"""
NEW = """\
from pkg.base import BaseHook


class StepCounterHook(BaseHook):
    def after_run(self, run_context, run_values):
        self.count += 1
"""


@pytest.fixture
def project(write, tmp_path: Path, monkeypatch) -> Path:
    write("pyproject.toml", "[project]\nname = 'p'\n")
    write("pkg/base.py", BASE)  # a namespace package: no __init__.py
    write("pkg/sub/new_hook.py", NEW.replace("from pkg.base", "from pkg.base"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _hooks(argv: list[str], capsys) -> dict[str, list[str]]:
    main(["report", "--format", "json", "--jobs", "1", *argv])
    return {hook["class"]: hook for hook in json.loads(capsys.readouterr().out)["hooks"]}


def test_scanning_the_package_resolves_its_absolute_imports(project: Path, capsys) -> None:
    hooks = _hooks(["pkg"], capsys)
    assert set(hooks) == {"BaseHook", "StepCounterHook"}
    assert hooks["StepCounterHook"]["module"] == "pkg.sub.new_hook"


def test_a_staged_file_alone_still_sees_its_in_repo_base(project: Path, capsys) -> None:
    hooks = _hooks(["pkg/sub/new_hook.py"], capsys)
    assert set(hooks) == {"StepCounterHook"}, "the base's file is read for context, not reported"
    assert [method["name"] for method in hooks["StepCounterHook"]["methods"]] == ["begin", "after_run"]


def test_a_src_layout_base_is_found_too(write, tmp_path: Path, monkeypatch, capsys) -> None:
    write("pyproject.toml", "[project]\nname = 'p'\n")
    write("src/pkg/__init__.py", "")
    write("src/pkg/base.py", BASE)
    write("src/pkg/new_hook.py", NEW)
    monkeypatch.chdir(tmp_path)
    assert set(_hooks(["src/pkg/new_hook.py"], capsys)) == {"StepCounterHook"}
