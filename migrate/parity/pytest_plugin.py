"""pytest plugin: keep parity as a test in your own suite (`assert_parity` and the `parity` fixture).

Installed with the package and registered through the ``pytest11`` entry
point, so a project that installs tf1-migrate can write::

    from migrate.parity.pytest_plugin import assert_parity

    def test_my_model_migrated():
        assert_parity("pairs/my_model.py", steps=50)

or use the fixture, which is the same function::

    def test_my_model_migrated(parity):
        parity("pairs/my_model.py", steps=50)

A broken pair fails the test with the first failing stage as the message; a
pair that cannot be used (exit 2 on the command line) fails it with the
usage message. Importing this plugin imports neither TensorFlow nor the
parity engine: pytest loads it in every session of a project that installs
the package.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from migrate.parity.api import PairSource
    from migrate.parity.result import ParityResult


def assert_parity(pair: PairSource, **options: Any) -> ParityResult:
    """Run `migrate.parity.check_parity(pair, **options)`; fail the test unless parity holds. Returns the result."""
    from migrate.parity.api import check_parity
    from migrate.parity.options import ConfigError
    from migrate.parity.pair import PairError

    try:
        result = check_parity(pair, **options)
    except (PairError, ConfigError) as error:
        pytest.fail(f"parity could not run: {error}", pytrace=False)
    stage = result.first_failure
    if stage is not None:  # the first failing stage, then how every other one ended
        lines = [f"parity broken at stage {stage.name}: {stage.message}"]
        lines += [f"  {other.name}: {other.status}: {other.message}" for other in result.stages if other is not stage]
        pytest.fail("\n".join(lines), pytrace=False)
    return result


@pytest.fixture
def parity() -> Callable[..., ParityResult]:
    """`assert_parity`, as a fixture."""
    return assert_parity
