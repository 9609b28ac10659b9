"""`check_parity`: the staged parity checks from Python, for a pair given as a file, a module or plain functions.

    from migrate.parity import check_parity

    result = check_parity("pairs/my_model.py", steps=50)
    assert result.ok, result.first_failure.message

TensorFlow is imported when the check runs, not when this module is imported.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from migrate.parity.config import config_for
from migrate.parity.options import ParityOptions, Progress, takes_options, to_stderr
from migrate.parity.pair import Pair, load_pair, pair_from
from migrate.parity.result import ParityResult

PairSource = str | Path | ModuleType | Mapping[str, Any] | Pair


def as_pair(pair: PairSource, progress: Progress = to_stderr) -> Pair:
    """A `Pair` from a path or built-in name, an imported module, or a dict of its names."""
    if isinstance(pair, Pair):
        return pair
    if isinstance(pair, (str, Path)):
        from migrate.parity.run import prepare_tensorflow_environment

        prepare_tensorflow_environment(progress)  # before the pair file imports TensorFlow
        return load_pair(pair)
    return pair_from(pair)


@takes_options(ParityOptions)
def check_parity(pair: PairSource, options: ParityOptions) -> ParityResult:
    """Run both sides of `pair` through the stages (six with serving); return the `ParityResult`.

    Called as `check_parity(pair, steps=50, optimizer="adam", ...)`: the keyword arguments are the
    options below, each the `migrate parity` flag in brackets (`serving=False` is `--no-serving`).
    Look at `result.ok`, `result.first_failure` (the first failing `Stage`:
    its `name` and `message`), `result.stages` and `result.summary()` (the
    JSON the command writes). A pair that cannot be used raises
    `migrate.parity.pair.PairError`, options that cannot run `migrate.parity.options.ConfigError`
    (the command's exit 2).
    """
    from migrate.parity.run import run_parity

    resolved = as_pair(pair, options.progress)
    config = config_for(resolved, options)
    result, _ = run_parity(config, resolved, options)
    assert result is not None, "run_parity returns no result only when one side is recorded alone"
    return result
