"""How close per-step losses must be, by optimizer and mode.

Why Adam drifts while SGD does not: with identical weights, batches and
kernels, plain SGD performs the same float32 operations in the same order on
both sides, so every step is bit-identical. Adam's update divides by
sqrt(v̂) + ε where the bias corrections 1 − β₁ᵗ and 1 − β₂ᵗ are computed
differently (TF1 keeps running β-power variables and folds the correction
into the learning rate; Keras recomputes βᵗ from the iteration count), so the
two updates differ in the last float32 bit from step 1 on. Training amplifies
those ulps step after step. Hence the practice from migration debugging:
compare tightly at the start, where a real bug shows at once, and let the
bound grow geometrically later, where only rounding drift is left.

Calibration (TF 2.15, batch 128, lr 1e-3, 300 steps, measured with
`migrate parity --optimizer adam`): relative drift 1e-7 at step 2, 2e-6 at
step 10, 4e-4 at step 33, 4e-3 at step 50, up to ~4e-2 by step 300; with the
wrong epsilon it is 1e-4 at step 2. The schedule 1e-5·1.25^(k−1), capped at
10%, passes the first and fails the second at step 2. Runs much longer than
a few hundred steps belong in the statistical mode.

Any optimizer can be held to a named schedule (`NAMED`: `--schedule NAME`, or
`TOLERANCE_SCHEDULE = "NAME"` in the pair file): "rounding" is the Adam
calibration above applied to any drift that starts at rounding level — a
gradient summed in another order (`tf.gradients` vs `GradientTape`, an
embedding feeding several branches), a custom optimizer ported with another
operation order. What grows is training's amplification of a last-bit seed,
not the optimizer's formula, so the same bound applies; the stage-3 and
stage-4 messages name it when they find a difference of at most a few ulp.
To calibrate a schedule for another model, run `bench/optimizer_drift.py`'s
method on it: record the relative loss drift at steps 2, 10, 50 and 300 of
a run known to be right and of one with a deliberate small bug (another
epsilon), and pick start and growth between the two.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ToleranceSchedule:
    """Allowed relative loss difference at step k: min(cap, start * growth**(k-1)); after step `until` (when
    set) the losses are shown, not checked (a drift that only the accuracy can judge)."""

    name: str
    start: float
    growth: float
    cap: float
    explanation: str
    until: int | None = None

    def allowed(self, step: int) -> float:
        if self.until is not None and step > self.until:
            return float("inf")
        try:
            grown = self.start * self.growth ** max(step - 1, 0)
        except OverflowError:  # growth ** step past the largest float (1.25 beyond ~3,180 steps): the cap holds
            grown = float("inf") if self.start else 0.0
        return min(self.cap, grown)

    def describe(self) -> str:
        if self.start == 0.0:
            return f"{self.name}: bit-identical (tolerance 0.0 at every step)"
        if self.start == float("inf"):
            return f"{self.name}: per-step losses not checked (accuracy decides)"
        if self.growth == 1.0 and self.cap == self.start:
            bound = f"{self.name}: relative |Δloss| ≤ {self.start:g}"
        else:
            bound = f"{self.name}: relative |Δloss| ≤ min({self.cap:g}, {self.start:g}·{self.growth:g}^(step−1))"
        return bound + (f" over the first {self.until} steps, later steps shown (accuracy decides)"
                        if self.until is not None else "")


def bit_identical(name: str, explanation: str) -> ToleranceSchedule:
    """A schedule that allows no difference at any step."""
    return ToleranceSchedule(name, 0.0, 1.0, 0.0, explanation)


EXACT_SGD = bit_identical("exact/sgd",
                          "SGD performs identical float32 operations on both sides: any difference is a bug.")
EXACT_TWIN = bit_identical(
    "exact/TF1-exact optimizer",
    "the Keras side trains with the TF1-exact twin of the optimizer (modern/optimizers), which runs TF1's own "
    "update kernels with TF1's slots and bias-correction state: identical float32 operations on both sides, so "
    "any difference is a bug. Keras' own optimizer drifts (--optimizer-flavour native).")
EXACT_ADAM = ToleranceSchedule(
    "exact/adam (Keras' own)", 1e-5, 1.25, 0.1,
    "Adam's bias correction rounds differently in TF1 and Keras' own Adam: the losses differ by ~1e-7 (relative) at "
    "step 2 and training amplifies it to a few % by step 300. A real bug shows at once: Keras' default "
    "epsilon 1e-7 instead of TF1's 1e-8 already differs by ~1e-4 at step 2.",
)
UNNAMED_OPTIMIZER = bit_identical(
    "exact",
    "the pair's params name no optimizer: held to bit-identity, which plain SGD and the TF1-exact twins of "
    "modern/optimizers reach; Keras' own Momentum, Adam or RMSProp drift (pass --loss-tolerance REL to allow it).")
STATISTICAL = ToleranceSchedule(
    "statistical", float("inf"), 1.0, float("inf"),
    "Dropout masks and shuffling differ by construction: per-step losses are shown, accuracy decides.",
)

ROUNDING = ToleranceSchedule(
    "rounding", 1e-5, 1.25, 0.1,
    "chosen (--schedule rounding): the sides compute the same thing with another rounding (a gradient summed in "
    "another order, a custom optimizer ported with another operation order); the bound is Adam's calibration "
    "(bench/optimizer_drift.py): ~1e-7 relative at step 2 growing to a few % by step 300, while a real bug "
    "(another epsilon) already differs by ~1e-4 at step 2.",
)

SPARSE_ROWS_CHECKED_STEPS = 40
SPARSE_ROWS = ToleranceSchedule(
    "sparse-rows", 1e-3, 1.0, 1e-3,
    "chosen (--schedule sparse-rows, for `--workers N` with an embedding): TF1's SyncReplicasOptimizer averages "
    "each row of a sparse gradient over the workers whose gradient held it, the all-reduce of "
    "MultiWorkerMirroredStrategy over all N — another update, not a rounding, so the losses part from step 2 and "
    "the drift compounds. Calibrated on examples/canned_dnn (2 workers, SGD; bench/distributed_pairs.py): relative "
    "drift ≤ 3.5e-4 over steps 2–10, ≤ 5.2e-4 up to step 40, 1.8e-2 by step 100 and 2.4e-2 by step 200. So the "
    f"first {SPARSE_ROWS_CHECKED_STEPS} steps are held to 1e-3 and accuracy decides after; a loss scaled by the "
    "replica count (a SUM loss not divided by num_replicas_in_sync) is 1.0 apart at step 1. A model whose rows "
    "are mostly seen by one worker (a large vocabulary: examples/text_cnn, max |Δloss| 0.0055 on losses near 0.69 within 40 steps) drifts further.",
    until=SPARSE_ROWS_CHECKED_STEPS)

SCHEDULES = {("exact", "sgd"): EXACT_SGD, ("exact", "adam"): EXACT_ADAM}
NAMED = {"exact": EXACT_SGD, "rounding": ROUNDING, "adam": EXACT_ADAM, "sparse-rows": SPARSE_ROWS}
"""Schedules a run can choose by name, whatever its optimizer (`--schedule`, the pair's `TOLERANCE_SCHEDULE`)."""


class UnknownSchedule(ValueError):
    """A schedule name that is not in `NAMED`."""


def named_schedule(name: str, mode: str = "exact") -> ToleranceSchedule:
    """The schedule called `name` (statistical mode checks no per-step loss, whatever is named)."""
    if name not in NAMED:
        raise UnknownSchedule(f"unknown tolerance schedule {name!r}; choose one of {', '.join(NAMED)}")
    return NAMED[name] if mode == "exact" else STATISTICAL


def schedule_for(mode: str, optimizer: str, optimizer_flavour: str | None = None) -> ToleranceSchedule:
    """The schedule for a mode and optimizer; an optimizer without a calibrated schedule is held to bit-identity.

    `optimizer_flavour` is the modern side's ``optimizer_flavour`` param: ``"exact"`` (the TF1-exact twins
    of `modern/optimizers`) is held to bit-identity whatever the optimizer. Relax a schedule with
    `constant_schedule` (`migrate parity --loss-tolerance R`) once you know why it drifts.
    """
    if mode != "exact":
        return STATISTICAL
    if optimizer_flavour == "exact":
        return EXACT_TWIN
    return SCHEDULES.get((mode, optimizer)) or bit_identical(
        f"exact/{optimizer}",
        f"no calibrated schedule for {optimizer!r}: held to bit-identity; pass --loss-tolerance to allow drift.")


def constant_schedule(relative: float) -> ToleranceSchedule:
    """The same relative tolerance at every step (`--loss-tolerance`)."""
    return ToleranceSchedule(
        "given", relative, 1.0, relative, f"relative |Δloss| ≤ {relative:g} at every step, as asked (--loss-tolerance).",
    )
