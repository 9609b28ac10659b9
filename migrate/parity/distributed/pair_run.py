"""What every role process of a distributed run on the user's pair needs: the pair file and each side's params.

The launcher (`migrate parity --workers N`, on the built-in MNIST pair or
``--pair FILE``) loads the pair and settles the params once, the way the
single-process engine does (`pair_run_for`, through
`migrate.parity.config.config_for`: the pair's PARAMS, MODE_PARAMS,
``--param``, ``--modern-override`` ...), and writes one `PairRun` as JSON
into the run's directory; each role program (``python -m
legacy.distributed.pair``, ``modern.distributed.pair``) reads it and loads
the pair file from its path with `migrate.parity.pair.load_pair`, as the
single-process engine does. TensorFlow-free.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from migrate.core.atomic_write import write_text_atomic
from migrate.parity.pair import Pair, PairError, load_pair

if TYPE_CHECKING:
    from migrate.parity.options import ParityOptions

INITIAL_TRAINABLE_KEY = "__trainable__"
INITIAL_STATE_KEY = "__state__"
"""The initial-weights .npz the legacy chief writes: variable name → value, plus these two keys listing the
trainable variables and the non-trainable state (batch-norm moving statistics) in creation order."""


@dataclass(frozen=True)
class PairRun:
    """The pair and the params both sides train with (the single-process engine's `legacy_params`/`modern_params`)."""

    pair: str
    """The pair file's absolute path."""
    name: str
    """The pair's name, as a single-process run reports it (``mnist`` for the built-in pair)."""
    legacy_params: dict[str, Any]
    modern_params: dict[str, Any]
    seed: int
    global_batch_size: int
    steps: int
    schedule: str | None = None
    """The per-step loss tolerance the pair names (TOLERANCE_SCHEDULE, or --schedule), for the verdict: its sides
    compute the same thing with another rounding; None: bit-identity when the worker count is a power of two."""

    def write(self, path: Path) -> Path:
        """Write the record as JSON; a param JSON cannot carry is a `PairError` naming it."""
        for side, params in (("legacy", self.legacy_params), ("modern", self.modern_params)):
            for key, value in params.items():
                try:
                    json.dumps(value)
                except (TypeError, ValueError) as error:
                    raise PairError(
                        f"params[{key!r}] of the {side} side is a {type(value).__name__}, which a distributed run "
                        "cannot hand to its role processes (JSON only: numbers, text, lists, dicts); set it inside "
                        "the pair's functions instead."
                    ) from error
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, json.dumps(asdict(self), indent=1))
        return path

    @classmethod
    def read(cls, path: Path) -> PairRun:
        try:
            return cls(**json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError) as error:
            raise PairError(f"--run {path} is not a pair run written by `migrate parity --workers` ({error}).") from error

    def load(self, evaluates: bool = False) -> Pair:
        """The pair, loaded from its file as the single-process engine loads it; for an evaluator task (`evaluates`)
        a `PairError` when it defines no eval input."""
        pair = load_pair(self.pair)
        if evaluates and not pair.has_eval:
            raise PairError(f"{pair.origin} defines no eval_input_fn and eval_dataset, which the evaluator tasks of "
                            "--evaluator evaluate every checkpoint on: define both, or run without --evaluator.")
        return pair

    def local_batch(self, workers: int) -> int:
        """Each of `workers` workers' share of the global batch; a `PairError` when it does not split evenly."""
        if self.global_batch_size % workers:
            raise PairError(f"the global batch {self.global_batch_size} does not split evenly over {workers} workers.")
        return self.global_batch_size // workers

    def params(self, side: str) -> dict[str, Any]:
        """The params `side` ("legacy" or "modern") calls the pair's functions with (``seed`` and ``mode`` included)."""
        return dict(self.legacy_params if side == "legacy" else self.modern_params)


def pair_run_for(spec: str | Path, options: ParityOptions) -> PairRun:
    """The pair loaded and its params settled as the single-process engine settles them (`config_for`, exact mode);
    a pair or an option that cannot run is a `PairError` or `migrate.parity.options.ConfigError` saying why."""
    from migrate.parity.config import config_for

    pair = load_pair(spec)
    config = config_for(pair, replace(options, mode="exact"))
    batch = config.params.get("batch_size")
    if not isinstance(batch, int):
        raise PairError(f"{pair.origin}: params['batch_size'] is {batch!r}; a distributed run splits each global "
                        "batch over the workers, so the pair's params must give its size (or pass --batch-size N).")
    return PairRun(pair.origin, pair.name, config.legacy_params, config.modern_params, config.seed, batch,
                   config.steps, config.schedule_name)
