"""What differs at the first step whose losses part: every variable and state, before and after that step.

The N-steps stage knows *when* the losses part (step k); this says *what*:
both sides are replayed from the initial weights to step k (only when a run
fails, so a passing run costs nothing), each snapshotting every trainable and
state variable after step k−1 and after step k, and the snapshots are
compared in TF1 creation order. Three outcomes, each with the first variable
that differs and by how much (max |Δ|, ulp, relative):

* identical before and after — only the reported loss differs (its
  computation or reduction, not the training);
* identical before, different after — step k's update differs: the named
  variable's gradient or optimizer;
* different before — the weights had already parted while the losses were
  still within tolerance (a difference too small to move the loss).

All differences of at most `ROUNDING_ULPS` ulp are called a rounding-level
difference, with the option that accepts it. When the weights had already
parted, each side's replay also kept a digest of every variable after every
step, so the step where they first parted is found and replayed to as well.
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from migrate.core.mapping import Match
from migrate.parity.difference import ROUNDING_ULPS, Difference, difference
from migrate.parity.stages import ACCEPT_ROUNDING, compared_variables


def differing(matches: Sequence[Match], legacy: Mapping[str, Any], modern: Mapping[str, Any]) -> list[tuple[Match, Difference]]:
    """The matched variables whose values differ, in `matches` order (TF1 creation order, then the state).

    Both sides are keyed by Keras name, in the Keras layout (`mapping.to_keras_layout` of the TF1 values).
    """
    return [(match, diff) for match, diff in compared_variables(matches, legacy, modern) if not diff.none]


def digest(values: Mapping[str, Any]) -> dict[str, str]:
    """A short fingerprint of each array's bytes: equal fingerprints, equal values (kept every step, cheaply)."""
    return {name: hashlib.sha1(np.ascontiguousarray(value).tobytes()).hexdigest()[:16] for name, value in values.items()}


def first_parting(matches: Sequence[Match], legacy: Mapping[int, Mapping[str, str]],
                  modern: Mapping[int, Mapping[str, str]]) -> int | None:
    """The first step after which some matched variable's digests differ (both keyed by Keras name), or None."""
    return next((step for step in sorted(set(legacy) & set(modern))
                 if any(legacy[step][m.modern.name] != modern[step][m.modern.name] for m in matches
                        if m.modern.name in legacy[step] and m.modern.name in modern[step])), None)


def _first(found: list[tuple[Match, Difference]]) -> str:
    match, diff = found[0]
    also = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return f"{match.legacy.name} (Keras {match.modern.name}): {diff.describe()}{also}"


def locate(
    step: int, matches: Sequence[Match], legacy: Mapping[int, Mapping[str, Any]], modern: Mapping[int, Mapping[str, Any]],
    legacy_loss: float | None, modern_loss: float | None,
) -> tuple[str, dict[str, Any]]:
    """The message and details for step `step`, from both sides' snapshots after step−1 and after step (each
    keyed by Keras name, in the Keras layout)."""
    before = differing(matches, legacy[step - 1], modern[step - 1])
    after = differing(matches, legacy[step], modern[step])
    loss = difference(np.float32(np.nan if legacy_loss is None else legacy_loss),
                      np.float32(np.nan if modern_loss is None else modern_loss))
    details: dict[str, Any] = {
        "step": step,
        "loss": loss.as_dict(),
        "before": [{"tf1": m.legacy.name, "keras": m.modern.name, **d.as_dict()} for m, d in before],
        "after": [{"tf1": m.legacy.name, "keras": m.modern.name, **d.as_dict()} for m, d in after],
    }
    if not before and not after:
        details["verdict"] = "loss only"
        message = (f"at step {step} only the reported loss differs ({loss.describe()}): every variable and state is "
                   "identical before and after the step — the loss is computed or reduced differently, not trained "
                   "differently")
    elif not before:
        details["verdict"] = "update"
        message = (f"the weights are identical before step {step}; after it the first that differs is {_first(after)} "
                   "— that variable's gradient or update differs")
    else:
        details["verdict"] = "weights before"
        message = (f"the weights already differ before step {step} (the losses were still within tolerance): first "
                   f"{_first(before)}; after step {step}: " + (_first(after) if after else "identical"))
    sizes = [d.ulps for _, d in before + after] + ([loss.ulps] if not loss.none else [])
    details["rounding_level"] = bool(sizes) and max(sizes) <= ROUNDING_ULPS
    return message, details


def rounding_note(details: Mapping[str, Any]) -> str | None:
    """The sentence that calls `locate`'s findings rounding-level and names the option, or None when they are not."""
    if not details.get("rounding_level"):
        return None
    rows = details["before"] + details["after"]
    largest = max([row["ulp"] for row in rows] + ([details["loss"]["ulp"]] if details["loss"]["ulp"] else []))
    names = sorted({row["tf1"] for row in rows})
    return (f"this differs at rounding level (≤ {largest:.0f} ulp" + (f": {', '.join(names)}" if names else "")
            + f"): the same computation summed in another order; accept it with {ACCEPT_ROUNDING}")
