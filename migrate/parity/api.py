"""`check_parity`: the staged parity checks from Python, for a pair given as a file, a module or plain functions.

    from migrate.parity import check_parity

    result = check_parity("pairs/my_model.py", steps=50)
    assert result.ok, result.first_failure.message

TensorFlow is imported when the check runs, not when this module is imported.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from migrate.parity.config import config_for
from migrate.parity.pair import Pair, load_pair, pair_from
from migrate.parity.result import ParityResult

PairSource = str | Path | ModuleType | Mapping[str, Any] | Pair


def as_pair(pair: PairSource) -> Pair:
    """A `Pair` from a path or built-in name, an imported module, or a dict of its names."""
    if isinstance(pair, Pair):
        return pair
    if isinstance(pair, (str, Path)):
        from migrate.parity.run import prepare_tensorflow_environment

        prepare_tensorflow_environment(quiet)  # before the pair file imports TensorFlow
        return load_pair(pair)
    return pair_from(pair)


def quiet(message: str) -> None:
    """Progress goes to stderr, where pytest captures it."""
    print(message, file=sys.stderr)


def check_parity(
    pair: PairSource,
    *,
    steps: int | None = None,
    mode: str = "exact",
    seed: int = 42,
    params: Mapping[str, Any] | None = None,
    optimizer: str | None = None,
    learning_rate: float | None = None,
    batch_size: int | None = None,
    scenarios: tuple[str, ...] = (),
    accuracy_bar: float | None = None,
    max_accuracy_gap_points: float | None = None,
    modern_overrides: Mapping[str, Any] | None = None,
    loss_tolerance: float | None = None,
    forward_tolerance: float = 0.0,
    serving: bool = True,
    serving_tolerance: float = 0.0,
    schedule: str | None = None,
    progress: Callable[[str], None] = quiet,
) -> ParityResult:
    """Run both sides of `pair` through the stages (six with serving); return the `ParityResult`.

    The keyword arguments are the `migrate parity` flags of the same names (``serving=False`` is
    ``--no-serving``).
    Look at `result.ok`, `result.first_failure` (the first failing `Stage`:
    its `name` and `message`), `result.stages` and `result.summary()` (the
    JSON the command writes). A pair that cannot be used raises
    `migrate.parity.pair.PairError` (the command's exit 2).
    """
    from migrate.parity.run import run_parity

    resolved = as_pair(pair)
    config = config_for(
        resolved, mode=mode, steps=steps, seed=seed, params=params, optimizer=optimizer,
        learning_rate=learning_rate, batch_size=batch_size, scenarios=scenarios, accuracy_bar=accuracy_bar,
        max_accuracy_gap_points=max_accuracy_gap_points, modern_overrides=modern_overrides,
        loss_tolerance=loss_tolerance, forward_tolerance=forward_tolerance, schedule=schedule,
    )
    from migrate.parity.serving.stage import ServingOptions

    result, _ = run_parity(config, resolved, progress=progress,
                           serving=ServingOptions(run=serving, tolerance=serving_tolerance))
    return result
