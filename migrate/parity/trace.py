"""The parity trace (`--record` / `--against`): a run's sides as one self-contained JSON file.

A trace holds what each recorded side produced (a `SideTrace`: per-step
losses, event sequences per scenario, final metrics, library versions, and
for the legacy side what stages 1–3 read: its variables, first-batch
fingerprint, forward outputs, variables after the first update), the run's
config and the initial weights both sides started from, so a run on another
machine or TensorFlow version (`migrate parity --against TRACE`) starts from
the same weights and compares against the same numbers. It is written by the
one codec of `migrate.core.side_trace` (`write_side_trace`): strict JSON, floats bit for bit, a
NaN loss as ``{"float": "NaN"}``.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from migrate.core.arrays import Array
from migrate.core.side_trace import SideTrace, SideTraceError, decode, read_json

TRACE_FORMAT = "tf1-migrate-parity-trace"
TRACE_FORMAT_VERSION = 3
"""3: the sides are `SideTrace` records in strict JSON (2 wrote bare NaN tokens and untyped side records)."""
CONFIG_KEYS_THAT_MUST_MATCH = ("pair", "mode", "steps", "seed", "params")
"""Each of these but `params` is set by the flag of its name (`--pair`, `--mode` …)."""


class TraceError(ValueError):
    """The trace cannot be used for this run; the message says why and what to do."""


@dataclass
class RecordedRun:
    """A trace file's content: the run's config (`ParityConfig.as_dict`), each recorded side, and the initial
    weights both sides start from (by TF1 name)."""

    config: dict[str, Any]
    sides: dict[str, SideTrace]
    initial_weights: dict[str, Array]
    format: str = TRACE_FORMAT
    format_version: int = TRACE_FORMAT_VERSION


def read_trace(path: Path) -> RecordedRun:
    """Load and validate a trace file; raise TraceError for anything unusable."""
    try:
        encoded = read_json(path, "trace",
                            "; it is corrupt or truncated. Record it again with `migrate parity --record PATH`.")
    except SideTraceError as error:
        raise TraceError(str(error)) from error
    if not isinstance(encoded, dict) or encoded.get("format") != TRACE_FORMAT:
        raise TraceError(f"{path} is not a tf1-migrate parity trace (missing \"format\": \"{TRACE_FORMAT}\").")
    version = encoded.get("format_version")
    if version != TRACE_FORMAT_VERSION:
        raise TraceError(
            f"trace {path} has format version {version!r}, this toolkit reads version {TRACE_FORMAT_VERSION}. "
            "Record it again with this version of `migrate parity --record`."
        )
    try:
        return decode(encoded, RecordedRun, f"trace {path}")
    except SideTraceError as error:
        raise TraceError(f"{error}; the trace is damaged: record it again.") from error


def check_config_matches(recorded: RecordedRun, config: dict[str, Any], path: Path) -> None:
    """A trace recorded with other settings cannot be compared: say which and how to match."""
    settings = recorded.config
    differing = [key for key in CONFIG_KEYS_THAT_MUST_MATCH if settings.get(key) != config.get(key)]
    if differing:
        details = ", ".join(f"{key}: trace {settings.get(key)!r} vs now {config.get(key)!r}" for key in differing)
        flags = " ".join(f"--{key} {settings.get(key)}" for key in differing if key != "params")
        hint = f" Re-run with {flags}" if flags else " Record a new trace with the current settings"
        raise TraceError(f"trace {path} was recorded with another config ({details}).{hint}.")
