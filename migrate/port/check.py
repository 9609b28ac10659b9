"""The parity check of a written port: the staged `migrate parity` engine on the generated pair.py."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from migrate.port.records import Verdict

Progress = Callable[[str], None]
DEFAULT_CHECK_STEPS = 20


def check_port(pair_file: Path, steps: int, progress: Progress, options: dict | None = None) -> Verdict:
    """Run the written pair through the five stages (exact mode) and say whether parity holds.

    `options` are `ParityOptions` fields the port asks for: the forward and loss
    tolerances of a rounding-level port (weights through a transform that sums
    in another order), and ``serving_tolerance``, the serving stage's. A pair
    the engine cannot use (`PairError`, a mapping refused) is a broken port,
    not a verdict: it propagates to the caller.
    """
    from migrate.parity.config import config_for
    from migrate.parity.options import ParityOptions
    from migrate.parity.pair import load_pair
    from migrate.parity.render import terminal_summary
    from migrate.parity.run import prepare_tensorflow_environment, run_parity

    prepare_tensorflow_environment(progress)
    pair = load_pair(pair_file)
    chosen = ParityOptions(mode="exact", steps=steps, progress=progress, **(options or {}))
    result, _ = run_parity(config_for(pair, chosen), pair, chosen)
    if result is None:
        raise RuntimeError("run_parity gave no result: it does so only when one side is recorded alone")
    return Verdict("holds" if result.ok else "broken", terminal_summary(result), steps)
