"""The settings of one parity run: the pair, the mode, the steps and the params every pair function gets."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from migrate.parity.options import PARAM_SHORTCUTS, ConfigError, ParityOptions
from migrate.parity.tolerance import (
    UNNAMED_OPTIMIZER,
    ToleranceSchedule,
    UnknownSchedule,
    constant_schedule,
    named_schedule,
    schedule_for,
)

if TYPE_CHECKING:
    from migrate.parity.pair import Pair

SIDES = ("both", "legacy", "modern")
DEFAULT_STEPS = {"exact": 200, "statistical": 2000}
"""Steps when neither `--steps` nor the pair's `STEPS` says otherwise."""
DEFAULT_MAX_GAP_POINTS = 0.5
EXACT_SGD_MAX_GAP_POINTS = 0.0  # bit-identical training (SGD, or any TF1-exact optimizer): identical metrics


@dataclass(frozen=True)
class ParityConfig:
    """What both sides train with.

    `exact`: per-step losses are compared under the optimizer's tolerance
    schedule (bit-identical for SGD); `statistical`: only the evaluation
    metrics decide (dropout and shuffling differ by construction). `params`
    is what every pair function receives (the pair's `PARAMS`, its
    `MODE_PARAMS[mode]`, then the command line); `modern_overrides` change
    the modern side's params only, to watch parity catch a difference.
    Made by `config_for` (the defaults are `ParityOptions`' and the pair's).
    """

    pair: str
    mode: str
    steps: int
    seed: int
    params: dict[str, Any]
    scenarios: tuple[str, ...]
    accuracy_bar: float | None
    max_accuracy_gap: float
    modern_overrides: dict[str, Any]
    loss_tolerance: float | None
    forward_tolerance: float
    schedule_name: str | None
    given: tuple[str, ...]
    """The params keys the caller set (`--param`, `--optimizer` …): reported if the pair never reads them."""

    @property
    def optimizer_flavour(self) -> str | None:
        """The modern side's ``optimizer_flavour`` param (MNIST pair: "exact" or "native"), if the pair has one."""
        flavour = self.modern_params.get("optimizer_flavour")
        return None if flavour is None else str(flavour)

    @property
    def legacy_params(self) -> dict[str, Any]:
        return {**self.params, "seed": self.seed, "mode": self.mode}

    @property
    def modern_params(self) -> dict[str, Any]:
        """The modern side's params: the shared ones, plus deliberate overrides."""
        return {**self.legacy_params, **self.modern_overrides}

    @property
    def schedule(self) -> ToleranceSchedule:
        if self.loss_tolerance is not None:
            return constant_schedule(self.loss_tolerance)
        if self.schedule_name is not None:
            return named_schedule(self.schedule_name, self.mode)
        if self.mode == "exact" and "optimizer" not in self.params and self.optimizer_flavour is None:
            return UNNAMED_OPTIMIZER
        return schedule_for(self.mode, str(self.params.get("optimizer", "sgd")), self.optimizer_flavour)

    def as_dict(self) -> dict[str, Any]:
        """The settings as the summary and a trace write them: every field but `given`, each as JSON can hold it
        (`json_safe`), and `schedule` only when one is named."""
        settings = {each.name: json_safe(getattr(self, each.name)) for each in fields(self)
                    if each.name not in ("given", "schedule_name")}
        return {**settings, **({"schedule": self.schedule_name} if self.schedule_name is not None else {})}


def json_safe(value: Any) -> Any:
    """`value` as JSON can hold it: dicts, lists, strings, numbers, booleans and None as they are, anything else
    (`tf.float32`, a function, a NumPy scalar) by its `repr` — params may hold any Python value."""
    if isinstance(value, Mapping):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def per_mode(value: Any, mode: str) -> Any:
    """A pair default given per mode ({"exact": …, "statistical": …}) or once for all modes."""
    return value.get(mode) if isinstance(value, Mapping) else value


def refuse_uncalibrated_bars(pair: Pair, mode: str, steps: int, accuracy_bar: float | None,
                             max_accuracy_gap_points: float | None) -> None:
    """Statistical mode's bars (the pair's ACCURACY_BAR, the default accuracy gap) hold for the run length they were
    calibrated at (the pair's STEPS for the mode): a shorter run would fail them for being short, so it must state
    its own (`--accuracy-bar`, `--max-accuracy-gap`)."""
    if mode != "statistical":
        return
    calibrated = per_mode(pair.value("STEPS"), mode) or DEFAULT_STEPS[mode]
    bar = per_mode(pair.value("ACCURACY_BAR"), mode)
    defaults = [f"the pair's ACCURACY_BAR {100 * bar:g}% (--accuracy-bar)"] if bar is not None and accuracy_bar is None else []
    if max_accuracy_gap_points is None:
        defaults.append(f"the default accuracy gap of {DEFAULT_MAX_GAP_POINTS:g} points (--max-accuracy-gap)")
    if steps < calibrated and defaults:
        raise ConfigError(
            f"--steps {steps} is below the {calibrated} steps the statistical bars are calibrated for (the pair's "
            f"STEPS for {mode} mode): {' and '.join(defaults)} would fail a shorter run for being short. Run at least "
            f"{calibrated} steps, or state the bars for this length: --accuracy-bar and --max-accuracy-gap."
        )


def config_for(pair: Pair, options: ParityOptions | None = None) -> ParityConfig:
    """The run's settings from the pair's defaults and the caller's `options` (the CLI and `check_parity` share it).

    params = the pair's `PARAMS`, then `MODE_PARAMS[mode]`, then `optimizer`
    (with its rate from `LEARNING_RATES` unless `learning_rate` is given),
    `batch_size`, `learning_rate`, then `params`. `optimizer_flavour` is a
    modern-only override (``modern_overrides["optimizer_flavour"]``), so a
    legacy trace recorded once serves both flavours.
    """
    options = options if options is not None else ParityOptions()
    mode = options.mode
    merged = {**pair.params, **(per_mode(pair.value("MODE_PARAMS"), mode) or {}), **shortcuts_given(options)}
    rates = pair.value("LEARNING_RATES") or {}
    if options.learning_rate is None and options.optimizer in rates:
        merged["learning_rate"] = rates[options.optimizer]
    merged.update(options.params or {})
    steps = options.steps if options.steps is not None else per_mode(pair.value("STEPS"), mode) or DEFAULT_STEPS[mode]
    if steps < 1 or merged.get("batch_size", 1) < 1:
        raise ConfigError("--steps and --batch-size must be positive")
    refuse_uncalibrated_bars(pair, mode, steps, options.accuracy_bar, options.max_accuracy_gap_points)
    modern_overrides = dict(options.modern_overrides or {})
    if options.optimizer_flavour is not None:
        modern_overrides["optimizer_flavour"] = options.optimizer_flavour
    flavour = modern_overrides.get("optimizer_flavour", merged.get("optimizer_flavour"))
    schedule = options.schedule if options.schedule is not None else pair.value("TOLERANCE_SCHEDULE")
    if schedule is not None:
        try:
            named_schedule(str(schedule), mode)
        except UnknownSchedule as error:
            raise ConfigError(str(error)) from error
    bit_identical = mode == "exact" and schedule in (None, "exact") and (
        merged.get("optimizer", "sgd") == "sgd" or flavour == "exact")
    gap = options.max_accuracy_gap_points if options.max_accuracy_gap_points is not None else (
        EXACT_SGD_MAX_GAP_POINTS if bit_identical else DEFAULT_MAX_GAP_POINTS)
    return ParityConfig(
        pair=pair.name, mode=mode, steps=steps, seed=options.seed, params=merged,
        scenarios=tuple(options.scenarios) if pair.has("legacy_scenarios") else (),
        accuracy_bar=options.accuracy_bar if options.accuracy_bar is not None else per_mode(pair.value("ACCURACY_BAR"), mode),
        max_accuracy_gap=gap / 100.0, modern_overrides=modern_overrides,
        loss_tolerance=options.loss_tolerance, forward_tolerance=options.forward_tolerance,
        schedule_name=None if schedule is None else str(schedule),
        given=tuple(dict.fromkeys([*shortcuts_given(options), *(options.params or {})])),
    )


def shortcuts_given(options: ParityOptions) -> dict[str, Any]:
    """The `PARAM_SHORTCUTS` the caller set (`--optimizer`, `--batch-size`, `--learning-rate`), by params key."""
    return {key: getattr(options, key) for key in PARAM_SHORTCUTS if getattr(options, key) is not None}
