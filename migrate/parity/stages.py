"""The staged checks, in the order a bug shows first (TensorFlow-free: numpy in, verdicts out).

1. variables   counts, shapes and dtypes of the trainable variables (the mapping),
               and constant initialisers (zeros, ones, …) that disagree;
2. forward     inference-mode outputs on the first batch, from the same weights;
3. one step    the loss of step 1, then every variable after the update, named;
4. N steps     per-step losses under the tolerance schedule, event sequences;
5. evaluation  the metrics both sides report on the eval input;
6. serving     the SavedModels' signatures and their answers (`migrate.parity.serving`).

Each check returns a `Stage`; the run stops at the first that fails and
reports the later ones as skipped. `run_checks` is that rule for a list of
named checks (the distributed verdict's: cluster, N global steps, roles,
replay, evaluation — `migrate.parity.distributed.verdict`).
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from migrate.core.arrays import Array
from migrate.core.mapping import Match, show_shape
from migrate.parity.compare import EventComparison, LossComparison, MetricComparison
from migrate.parity.difference import (
    NEGLIGIBLE,
    ROUNDING_ULPS,
    Difference,
    difference,
    model_scale,
    relative,
    relative_to,
)

TITLES = {
    "variables": "1. variables",
    "forward": "2. forward pass (inference, first batch)",
    "one-step": "3. one training step",
    "n-steps": "4. N training steps",
    "evaluation": "5. evaluation metrics",
    "serving": "6. serving (SavedModel signatures and answers)",
}
PREFERRED_PREDICTION_KEYS = ("logits", "predictions", "probabilities")


@dataclass
class Stage:
    """One check: its status ("ok", "failed", "skipped", "not checked"), a one-line verdict, and details.

    `title` is the heading it is shown under: `TITLES[name]` unless the pipeline that ran it gives its own.
    """

    name: str
    status: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)
    title: str = ""

    def __post_init__(self) -> None:
        self.title = self.title or TITLES.get(self.name, self.name)

    @property
    def ok(self) -> bool:
        return self.status != "failed"

    def as_dict(self) -> dict[str, Any]:
        return {"stage": self.name, "title": self.title, "status": self.status, "ok": self.ok,
                "message": self.message, **self.details}


def skipped(name: str, why: str, title: str = "") -> Stage:
    return Stage(name, "skipped", why, title=title)


Check = tuple[str, str, Callable[[], Stage]]
"""A named check of a pipeline: (stage name, title, the function that runs it)."""


def run_checks(checks: Sequence[Check]) -> list[Stage]:
    """Run the checks in order; after the first that fails, the rest are reported as skipped, not run."""
    stages: list[Stage] = []
    for name, title, check in checks:
        if all(stage.ok for stage in stages):
            stages.append(check())
            stages[-1].title = title
        else:
            stages.append(skipped(name, "an earlier stage failed", title))
    return stages


def check_variables(
    matches: Sequence[Match], legacy_constants: Mapping[str, float | None], modern_constants: Mapping[str, float | None],
    state: Sequence[Match] = (),
) -> Stage:
    """Shapes are equal by construction of the mapping; dtypes and constant initialisers are checked here.

    `state` are the matched non-trainable variables (batch-norm moving statistics): listed, their values
    copied like the trainable ones, compared after the first update and where a run diverges.
    """
    def row(m: Match) -> dict[str, Any]:
        return {"tf1": m.tf1_label, "keras": m.modern.name, "shape": list(m.legacy.shape), "how": m.how,
                "transform": m.transform_name}

    rows, state_rows = [row(m) for m in matches], [row(m) for m in state]
    problems = []
    for m in matches:
        if m.legacy.dtype != m.modern.dtype:
            problems.append(f"{m.legacy.name} is {m.legacy.dtype} in TF1 but {m.modern.name} is {m.modern.dtype} in Keras")
        tf1_value, keras_value = legacy_constants.get(m.legacy.name), modern_constants.get(m.modern.name)
        if tf1_value is not None and keras_value is not None and tf1_value != keras_value:
            problems.append(
                f"{m.legacy.name} is initialised to the constant {tf1_value:g} in TF1 but {m.modern.name} to "
                f"{keras_value:g} in Keras (an initializer differs: a fresh Keras training would not start where TF1 did)"
            )
    details = {"mapping": rows, **({"state_mapping": state_rows} if state_rows else {})}
    if problems:
        return Stage("variables", "failed", "variables: " + "; ".join(problems), details)
    also = f" (and {len(state_rows)} non-trainable state variables)" if state_rows else ""
    return Stage("variables", "ok", f"{len(matches)} trainable variables{also} match in shape and dtype", details)


def constant_value(array: Any) -> float | None:
    """The one value every element of an initial value holds (zeros, ones, …), else None: what stage 1 compares."""
    flat = np.asarray(array).ravel()
    return float(flat[0]) if flat.size and np.all(flat == flat[0]) else None


def _pick_output(legacy: Any, modern: Any, key: str | None) -> tuple[str | None, dict[str, Any], dict[str, Any]]:
    """What the forward stage compares: its name (None: the one output) and both sides' outputs by that name."""
    if not isinstance(legacy, Mapping):
        return None, {"output": legacy}, {"output": modern}
    if key is not None:
        if key not in legacy:
            raise KeyError(f"PREDICTION_KEY {key!r} is not among the model_fn's predictions {sorted(legacy)}")
        return key, {key: legacy[key]}, {key: modern}
    if isinstance(modern, Mapping):
        common = sorted(set(legacy) & set(modern))
        if not common:
            raise KeyError(f"the model_fn predicts {sorted(legacy)} and the Keras model outputs {sorted(modern)}: no key in common")
        return ",".join(common), {k: legacy[k] for k in common}, {k: modern[k] for k in common}
    shape = np.shape(modern)
    candidates = [k for k, value in legacy.items() if np.shape(value) == shape]
    if not candidates:
        raise KeyError(
            f"no prediction of the model_fn has the Keras output's shape {show_shape(shape)} "
            f"(predictions: {', '.join(f'{k} {show_shape(np.shape(v))}' for k, v in legacy.items())})"
        )
    chosen = next((k for k in PREFERRED_PREDICTION_KEYS if k in candidates), sorted(candidates)[0])
    return chosen, {chosen: legacy[chosen]}, {chosen: modern}


ROUNDING_LEVEL = 1e-5
"""A forward difference this small relative to the outputs is rounding (float32 has ~7 digits), not another layer."""


def check_forward(legacy: Any, modern: Any, key: str | None, tolerance: float) -> Stage:
    """Max |Δ| of the outputs; `legacy` is the model_fn's predictions (a dict or a tensor)."""
    chosen, left, right = _pick_output(legacy, modern, key)
    diffs = {k: difference(left[k], right[k]).max_abs for k in left}
    worst = max(diffs.values())
    details = {"compared": chosen, "max_abs_diff": worst, "tolerance": tolerance, "per_output": diffs}
    if worst > tolerance:
        where = ", ".join(f"{k}: {v:.6g}" for k, v in diffs.items() if v > tolerance)
        relative = relative_to(worst, model_scale(list(left.values())))
        details["relative"] = relative
        if relative <= ROUNDING_LEVEL:
            cause = (f"a rounding-level difference (relative {relative:.2g}): the same computation with kernels that "
                     "sum in another order (another TensorFlow or Keras version, oneDNN on); if that is expected, "
                     f"allow it with --forward-tolerance {max(worst * 2, 1e-7):.1g}")
        else:
            cause = "a layer computes something else (activation, normalisation, preprocessing, dropout at inference)"
        return Stage("forward", "failed",
                     f"forward: the outputs differ on the first batch from the same weights (max |Δ| {where}; "
                     f"allowed {tolerance:g}): {cause}", details)
    return Stage("forward", "ok", f"outputs ({chosen or 'output'}) max |Δ| = {worst:.6g}", details)


LAYER_INPUT_ROWS = 8
"""Layer inputs are kept for the first examples of the batch only: enough to locate a difference, small in a trace."""


def locate_forward_difference(
    matches: Sequence[Match], legacy_inputs: Mapping[str, Any], modern_inputs: Mapping[str, Any], tolerance: float,
) -> tuple[str, dict[str, Any]] | None:
    """Where a failed forward pass starts to differ: the first layer (TF1 creation order) whose *input* differs.

    `legacy_inputs`/`modern_inputs` map a kernel's name to the tensor its layer multiplies it with, on the
    first batch. A different output means every gradient differs after one step, so the variables after
    the update cannot say where; the layers' inputs can. None when no kernel could be compared.
    """
    checked: list[str] = []
    uncompared: list[str] = []  # kernels before the difference whose layers' inputs have other layouts (transforms)
    for match in matches:
        left, right = legacy_inputs.get(match.legacy.name), modern_inputs.get(match.modern.name)
        if left is None or right is None or np.shape(left) != np.shape(right):
            if match.transform is not None and match.legacy.name not in uncompared:
                uncompared.append(match.legacy.name)
            continue
        apart = difference(left, right).max_abs
        if apart > tolerance:
            name = match.legacy.name
            details = {"first_input_differs": name, "max_abs_diff": apart, "inputs_agree": list(checked)}
            if uncompared:
                return (f"the layer with {name} gets a different input (max |Δ| {apart:.6g}); the layers before it "
                        f"with {', '.join(uncompared)} store their weights in another layout and could not be compared: "
                        "look there first"), {**details, "uncompared": uncompared}
            if not checked:
                return (f"the input of the first layer (the one with {name}) already differs (max |Δ| {apart:.6g}): "
                        "the features reach the model differently — feature order (tf.compat.v1.feature_column."
                        "input_layer concatenates the columns sorted by name), scaling, one-hot or embedding ids"), details
            return (f"the layer with {checked[-1]} gets the same input on both sides, the layer with {name} does not "
                    f"(max |Δ| {apart:.6g}): the layer with {checked[-1]}, or what follows it before the next, "
                    "computes something else (activation, normalisation, dropout at inference)"), details
        checked.append(match.legacy.name)
    if not checked:
        return None
    return (f"every layer with a kernel gets the same input ({len(checked)} checked): the difference is in the last "
            f"one (the layer with {checked[-1]}) or after it: its product, activation or the output's transformation"), {
                "first_input_differs": None, "inputs_agree": checked}


def compared_variables(matches: Sequence[Match], legacy: Mapping[str, Any],
                       modern: Mapping[str, Any]) -> list[tuple[Match, Difference]]:
    """Each matched variable both sides hold, compared, in `matches` order; both keyed by Keras name, in the Keras
    layout. A variable's scale is taken as at least `NEGLIGIBLE` of the model's (the legacy values' `model_scale`)."""
    floor = NEGLIGIBLE * model_scale([legacy[m.modern.name] for m in matches if m.modern.name in legacy])
    return [(m, difference(legacy[m.modern.name], modern[m.modern.name], floor)) for m in matches
            if m.modern.name in legacy and m.modern.name in modern]


ACCEPT_ROUNDING = "--schedule rounding (or TOLERANCE_SCHEDULE = \"rounding\" in the pair file)"
"""The option that accepts a rounding-level difference, named wherever one is reported."""


def check_one_step(
    matches: Sequence[Match], legacy_loss: float | None, modern_loss: float | None,
    legacy_after: Mapping[str, Any], modern_after: Mapping[str, Any], relative_tolerance: float, *, step: int = 1,
) -> Stage:
    """The loss of the first step that updates the variables (`step`, normally 1), then every variable after it,
    in TF1 creation order; `matches` may include the non-trainable state (compared the same way).

    Both sides are compared in the Keras layout: `legacy_after` is keyed by Keras name (`mapping.to_keras_layout`).
    """
    if relative_tolerance == float("inf"):
        return Stage("one-step", "not checked", "one step: not checked in statistical mode (dropout, shuffling)")
    rows: list[dict[str, Any]] = [  # one per variable, into the stage's details
        {"tf1": m.legacy.name, "keras": m.modern.name, **diff.as_dict(), "ok": diff.relative <= relative_tolerance}
        for m, diff in compared_variables(matches, legacy_after, modern_after)]
    differing = [row for row in rows if not row["ok"]]
    loss_diff = difference(np.float32(legacy_loss if legacy_loss is not None else np.nan),
                           np.float32(modern_loss if modern_loss is not None else np.nan))
    loss_ok = legacy_loss is not None and modern_loss is not None and (
        relative(legacy_loss, modern_loss) <= relative_tolerance
    )
    details = {"step": step, "loss": {"legacy": legacy_loss, "modern": modern_loss, "ulp": loss_diff.ulps},
               "variables": rows, "relative_tolerance": relative_tolerance}
    where = f"step {step}" if step == 1 else (
        f"step {step} (the first that updates a variable: the step{'s' if step > 2 else ''} before it change none on "
        "either side — a learning rate of 0 or a warm-up — so it is checked instead of step 1)")
    if loss_ok and not differing:
        identical = loss_diff.none and all(row["max_abs_diff"] == 0.0 for row in rows)
        largest = max([loss_diff.ulps, *(row["ulp"] for row in rows)])
        verdict = "agree" if identical else f"are within tolerance (relative {relative_tolerance:g}; ≤ {largest:.0f} ulp)"
        return Stage("one-step", "ok", f"{where}: loss and all {len(rows)} variables after the update {verdict}", details)
    rounding = ((loss_ok or loss_diff.rounding_level) and all(0 < row["ulp"] <= ROUNDING_ULPS for row in differing))
    parts = []
    if rounding:
        largest = max([loss_diff.ulps if not loss_ok else 0, *(row["ulp"] for row in differing)])
        named = ", ".join(row["tf1"] for row in differing) or "the loss only"
        parts.append(f"differs at rounding level (≤ {largest:.0f} ulp: {named}): the same update summed in another "
                     "order (tf.gradients vs GradientTape, a fused kernel) — not a wrong layer, loss or update; "
                     f"accept it with {ACCEPT_ROUNDING}")
        details["rounding_level"] = True
    else:
        if not loss_ok:
            parts.append(f"the loss of step {step} differs: legacy {legacy_loss!r} vs modern {modern_loss!r} "
                         "(loss function, reduction, regularisation, or the forward pass in training mode: dropout)")
        if differing:
            first = differing[0]
            others = ", ".join(row["tf1"] for row in differing[1:])
            parts.append(
                f"first variable that differs after the update: {first['tf1']} (Keras {first['keras']}), "
                f"max |Δ| {first['max_abs_diff']:.6g}" + (f"; also {others}" if others else "")
            )
    details["first_variable"] = differing[0]["tf1"] if differing else None
    prefix = "one step: " if step == 1 else f"one step ({where}): "
    return Stage("one-step", "failed", prefix + "; ".join(parts), details)


def check_order_guesses(matches: Sequence[Match], legacy_after: Mapping[str, Any], modern_after: Mapping[str, Any]) -> str | None:
    """Pairs the mapping could only guess by order (`Match.unverified`), checked by name after step 1.

    Two weights that start at the same constant look alike until they are
    updated; after step 1 a TF1 value that equals another Keras weight of its
    group, not its own, means the guess swapped them. Both dicts are keyed by
    Keras name, in the Keras layout. None when every guess holds.
    """
    guessed = [m for m in matches if m.unverified]
    swaps = []
    for m in guessed:
        own = difference(legacy_after[m.modern.name], modern_after[m.modern.name]).max_abs
        better = [other for other in guessed if other is not m and other.modern.shape == m.modern.shape
                  and difference(legacy_after[m.modern.name], modern_after[other.modern.name]).max_abs < own]
        if own > 0 and better:
            swaps.append(f"{m.legacy.name!r}: {better[0].modern.name!r}")
    if not swaps:
        return None
    return ("the mapping paired weights that start at the same constant by creation order, and after step 1 they "
            f"belong elsewhere: put {{{', '.join(swaps)}}} in variable_map")


def check_n_steps(losses: LossComparison, events: Sequence[EventComparison]) -> Stage:
    """Today's comparison: per-step losses under the schedule, and the event sequences."""
    problems = []
    violation = losses.first_violation
    if violation is not None:
        problems.append(  # no |Δ|: a loss is NaN or missing
            f"losses: NaN or missing loss at step {violation.step}: legacy {violation.legacy!r} vs modern "
            f"{violation.modern!r}" if violation.abs_diff is None else
            f"losses: first step beyond tolerance is {violation.step}: legacy {violation.legacy!r} vs "
            f"modern {violation.modern!r} (|Δ|={violation.abs_diff!r}, allowed relative {violation.allowed:g})"
        )
    if not losses.rows:
        problems.append("losses: no per-step losses were recorded")
    problems += [item.divergence_message() for item in events if not item.ok]
    if problems:
        return Stage("n-steps", "failed", "; ".join(problems))
    largest = losses.max_abs_loss_diff
    within = f" (within tolerance, {losses.schedule.name})" if largest and losses.checked else ""
    return Stage("n-steps", "ok", f"{len(losses.rows)} steps, max |Δloss| = {largest:.6g}{within}"
                 + (f", {len(events)} event sequences match" if events else ""))


def check_evaluation(metrics: MetricComparison) -> Stage:
    if metrics.problems:
        return Stage("evaluation", "failed", "evaluation: " + "; ".join(metrics.problems))
    shown = ", ".join(f"{key} {metrics.legacy[key]:.6g} vs {metrics.modern[key]:.6g}" for key in metrics.compared)
    return Stage("evaluation", "ok", shown or "no metric in common")


def _leaves(batch: Any, prefix: str = "") -> list[tuple[str, Array]]:
    if isinstance(batch, Mapping):
        return [leaf for key in sorted(batch) for leaf in _leaves(batch[key], f"{prefix}{key}/")]
    if isinstance(batch, (tuple, list)):
        return [leaf for index, item in enumerate(batch) for leaf in _leaves(item, f"{prefix}{index}/")]
    return [(prefix.rstrip("/"), np.asarray(batch))]


def _named_leaves(batch: Any) -> list[tuple[str, Array]]:
    if isinstance(batch, (tuple, list)) and len(batch) == 2:
        return _leaves(batch[0], "features/") + _leaves(batch[1], "labels/")
    return _leaves(batch)


def batch_structure(batch: Any) -> dict[str, list[int]]:
    """Each leaf of a (features, labels) batch by path ("features/age", "labels"), with its shape."""
    return {path: list(array.shape) for path, array in _named_leaves(batch)}


def batch_fingerprint(batch: Any) -> str:
    """A hash of a batch's values, independent of integer/float widths (int32 labels equal int64 ones)."""
    digest = hashlib.sha256()
    for path, array in _named_leaves(batch):
        digest.update(path.encode())
        values = array.astype(np.float64) if array.dtype.kind in "biuf" else np.char.encode(array.astype(str))
        digest.update(np.ascontiguousarray(values).tobytes())
    return digest.hexdigest()[:16]


def batch_problem(
    legacy_structure: Mapping[str, list[int]], modern_batch: Any, legacy_fingerprint: str, *, values: bool = True
) -> str | None:
    """Why the modern dataset's first batch is not the legacy input's, or None when they are the same.

    `values=False` (statistical mode, where shuffling differs by construction) checks the structure only.
    """
    modern_structure = batch_structure(modern_batch)
    if dict(legacy_structure) != modern_structure:
        def show(structure: Mapping[str, list[int]]) -> str:
            return ", ".join(f"{path} {show_shape(tuple(shape))}" for path, shape in structure.items())

        return (
            f"the first batches differ in batch size or element structure: train_input_fn gives {show(legacy_structure)}, "
            f"train_dataset gives {show(modern_structure)}"
        )
    if values and batch_fingerprint(modern_batch) != legacy_fingerprint:
        return ("the first batches hold different values: train_dataset must give the same batches in the same order "
                "as train_input_fn (same data, no shuffling, or the same shuffle)")
    return None
