"""The pytest plugin as a user's suite meets it: `assert_parity` and the `parity` fixture, in a fresh pytest run."""
from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

PAIRS = Path(__file__).resolve().parent / "pairs"

pytestmark = pytest.mark.estimator


def plugin_arguments() -> list[str]:
    """`-p` when the package's pytest11 entry point is not installed (e.g. an editable install made before it)."""
    installed = any(entry.value == "migrate.parity.pytest_plugin"
                    for entry in importlib.metadata.entry_points(group="pytest11"))
    return [] if installed else ["-p", "migrate.parity.pytest_plugin"]


def test_a_matching_pair_passes_and_a_broken_one_fails_with_the_first_failing_stage(pytester):
    pytester.makepyfile(test_migration=f"""
        from migrate.parity.pytest_plugin import assert_parity

        def test_dense_pair_still_matches(parity):
            result = parity({str(PAIRS / "dense.py")!r}, steps=2)
            assert result.losses.max_abs_loss_diff == 0.0

        def test_loss_reduction_slip():
            assert_parity({str(PAIRS / "broken_loss_reduction.py")!r}, steps=2)
    """)
    result = pytester.runpytest(*plugin_arguments(), "-q")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*parity broken at stage one-step: one step: the loss of step 1 differs: legacy * vs modern *",
        "*variables: ok: 4 trainable variables match in shape and dtype",
    ])
    assert "Traceback" not in result.stdout.str()
