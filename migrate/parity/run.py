"""Run a pair through the staged checks: prepare both sides, map the weights, compare stage by stage.

The legacy side is the reference: it creates the initial weights (its step-0
checkpoint) and the modern side copies them through the mapping. A side can
come from a trace recorded earlier (`--against`), e.g. legacy recorded on TF
2.15 and modern run on TF 2.21 / Keras 3, where `tf.estimator` no longer
exists. Training runs once, for all of stages 3–5; a failure in stage 1 stops
before any training, a failure in stage 2 trains one step only (to name the
first variable whose update differs).
"""
from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from migrate.core.mapping import (
    FORGET_BIAS_NOTE,
    MappingError,
    Match,
    Weight,
    infer_mapping,
    split_variable_map,
    to_keras_layout,
)
from migrate.core.protocol import without_losses
from migrate.core.scenarios import SCENARIOS
from migrate.parity import divergence
from migrate.parity import trace as traces
from migrate.parity.advice import ignored_optimizer, optimizer_advice
from migrate.parity.compare import compare_events, compare_losses, compare_metrics
from migrate.parity.config import ParityConfig
from migrate.parity.pair import Pair, PairError
from migrate.parity.read_params import ReadParams, unread
from migrate.parity.result import ParityResult
from migrate.parity.serving.stage import ServingOptions, record_legacy_export, serving_stage
from migrate.parity.stages import (
    ROUNDING_LEVEL,
    Stage,
    batch_problem,
    check_evaluation,
    check_forward,
    check_n_steps,
    check_one_step,
    check_order_guesses,
    check_variables,
    locate_forward_difference,
    skipped,
)

Progress = Callable[[str], None]
LOSS_NOTE = (
    "note: the evaluation loss is shown, not compared: tf.compat.v1.metrics.mean averages the per-batch losses "
    "(the last, partial batch weighs as much as a full one) while Keras weights by example."
)


def prepare_tensorflow_environment(progress: Progress) -> None:
    """oneDNN kernels are not bit-reproducible: turn them off before TensorFlow loads."""
    if os.environ.get("TF_ENABLE_ONEDNN_OPTS") != "0" and "tensorflow" in sys.modules:
        progress("warning: TensorFlow was imported before TF_ENABLE_ONEDNN_OPTS=0 could be set; exact parity may not hold")
    os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def losses_from_json(losses: dict) -> dict[int, float]:
    return {int(step): float(loss) for step, loss in losses.items()}


def encode_outputs(outputs: Any) -> dict[str, Any]:
    if isinstance(outputs, dict):
        return {"kind": "dict", "arrays": traces.encode_weights({k: np.asarray(v) for k, v in outputs.items()})}
    return {"kind": "array", "arrays": traces.encode_weights({"output": np.asarray(outputs)})}


def decode_outputs(encoded: dict[str, Any]) -> Any:
    arrays = traces.decode_weights(encoded["arrays"])
    return arrays if encoded["kind"] == "dict" else arrays["output"]


def to_json_record(record: dict) -> dict:
    """A side record as the trace stores it (arrays base64-encoded; the replay's snapshots are not kept)."""
    result = {key: value for key, value in record.items() if key != "captured"}
    if result.get("forward") is not None:
        result["forward"] = {"outputs": encode_outputs(result["forward"]["outputs"]),
                             "layer_inputs": traces.encode_weights(result["forward"].get("layer_inputs") or {})}
    if "after_first_step" in result:
        result["after_first_step"] = traces.encode_weights(result["after_first_step"])
    return result


def from_json_record(record: dict) -> dict:
    result = dict(record)
    if result.get("forward") is not None:
        result["forward"] = {"outputs": decode_outputs(result["forward"]["outputs"]),
                             "layer_inputs": traces.decode_weights(result["forward"].get("layer_inputs") or {})}
    if "after_first_step" in result:
        result["after_first_step"] = traces.decode_weights(result["after_first_step"])
    return result


def legacy_weights(record: dict) -> list[Weight]:
    return [Weight(item["name"], tuple(item["shape"]), item["dtype"]) for item in record["variables"]]


def mapping_for(pair: Pair, legacy: list[Weight], modern: list[Weight], legacy_constants: dict | None = None,
                modern_constants: dict | None = None, state: list[Weight] = ()) -> list[Match]:
    """The pair's mapping, checked before anything trains (a bad one is a usage error naming the fix).

    `variable_map` rows naming the TF1 `state` (moving statistics) belong to `state_mapping_for`.
    """
    variable_map, _ = split_variable_map(pair.value("variable_map"), {weight.name for weight in state})
    try:
        return infer_mapping(legacy, modern, variable_map, legacy_constants=legacy_constants,
                             modern_constants=modern_constants)
    except MappingError as error:
        raise PairError(f"{pair.origin}: {error}") from error


def state_mapping_for(pair: Pair, legacy: list[Weight], modern: list[Weight]) -> tuple[list[Match], str | None]:
    """The non-trainable state (batch-norm moving statistics) matched like the trainable variables.

    The `variable_map` entries naming state variables apply; a state that cannot be matched is not an error
    (its effect still shows in the losses), only not compared: the second value says why.
    """
    if not legacy:
        return [], None  # a Keras-only state (batch norm TF1 lacks) shows in the forward pass, not here
    _, variable_map = split_variable_map(pair.value("variable_map"), {weight.name for weight in legacy})
    try:
        return infer_mapping(legacy, modern, variable_map), None
    except MappingError as error:
        return [], f"the non-trainable state is not compared: {error}"


class Replay(NamedTuple):
    """Both sides replayed to a step: its losses, each side's snapshots after step−1 and step (by Keras name, in the
    Keras layout), and each side's digests of every step (empty unless asked for)."""

    losses: tuple[float | None, float | None]
    legacy: dict[int, dict[str, np.ndarray]]
    modern: dict[int, dict[str, np.ndarray]]
    digests: tuple[dict[int, dict[str, str]], dict[int, dict[str, str]]]


class Run:
    """One parity run's state while it goes through the stages."""

    def __init__(self, config: ParityConfig, pair: Pair, progress: Progress, workdir: Path,
                 serving: ServingOptions = ServingOptions()) -> None:
        self.config, self.pair, self.progress, self.workdir = config, pair, progress, workdir
        self.serving, self.serving_dir = serving, serving.directory or workdir / "serving"
        self.legacy: dict[str, Any] = {}
        self.initial_weights: dict[str, np.ndarray] = {}
        self.legacy_batch: Any = None
        self.read: set[str] = set()  # the params keys any pair function looked up
        self.legacy_params = ReadParams(config.legacy_params, self.read)
        self.modern_params = ReadParams(config.modern_params, self.read)

    # legacy side -----------------------------------------------------------------------------------------------
    def prepare_legacy(self) -> None:
        from migrate.parity.sides import legacy_side

        self.progress(f"[legacy] {self.pair.name}: model_fn in an Estimator")
        prepared = legacy_side.prepare(self.pair, self.legacy_params, self.config.seed, self.workdir / "legacy")
        self.legacy_prepared = prepared
        self.legacy = dict(prepared["record"])
        self.initial_weights = prepared["initial_weights"]
        self.legacy_batch = prepared["first_batch"]

    def train_legacy(self, steps: int, *, evaluate: bool, scenarios: bool) -> None:
        from migrate.parity.sides import legacy_side

        params, seed = self.legacy_params, self.config.seed
        self.progress(f"[legacy] Estimator + SessionRunHooks: {steps} steps")
        self.legacy.update(legacy_side.train(self.pair, params, seed, self.legacy_prepared, steps, self.progress))
        if evaluate and self.pair.has_eval:
            self.legacy["metrics"] = legacy_side.evaluate(self.pair, params, seed, self.legacy_prepared)
            self.progress("  legacy evaluation: " + describe_metrics(self.legacy["metrics"]))
        if scenarios:
            self.legacy["events"] = legacy_side.scenarios(
                self.pair, params, self.workdir / "legacy", self.config.scenarios, self.progress
            )

    def locate_divergence(self, modern, matches: list[Match], state_matches: list[Match], step: int,
                          recorded: tuple[float | None, float | None]) -> tuple[str, dict[str, Any]] | None:
        """Replay both sides to `step` and compare every variable before and after it (`divergence.locate`)."""
        if not hasattr(self, "legacy_prepared"):
            return ("not located: the legacy side comes from a trace; run both sides on TF 2.15 to compare the "
                    "variables at that step"), {}
        self.progress(f"[locate] replaying both sides to step {step} to compare every variable before and after it")
        everything = matches + state_matches
        replay = self.replay(modern, matches, everything, step, digests=True)
        if replay is None:
            return None
        replayed = replay.losses
        message, details = divergence.locate(step, everything, replay.legacy, replay.modern, *replayed)
        parted = divergence.first_parting(everything, *replay.digests) if details["verdict"] == "weights before" else None
        if parted is not None and parted < step - 1:
            self.progress(f"[locate] the weights first part at step {parted}: replaying to it")
            earlier = self.replay(modern, matches, everything, parted, digests=False)
            if earlier is not None:
                earlier_message, earlier_details = divergence.locate(parted, everything, earlier.legacy, earlier.modern,
                                                                     *earlier.losses)
                message += f"; they first part at step {parted}: {earlier_message}"
                details["first_parting"] = earlier_details
        if (note := divergence.rounding_note(details)) is not None:
            message += f"; {note}"
        if replayed != recorded:
            message += (f" (caution: the replay's step-{step} losses {replayed[0]!r} / {replayed[1]!r} are not the run's "
                        f"{recorded[0]!r} / {recorded[1]!r}: a side is not deterministic)")
            details["replay_reproduced"] = False
        return message, details

    def replay(self, modern, matches: list[Match], everything: list[Match], step: int, *, digests: bool) -> Replay | None:
        """Both sides again from the initial weights to `step` (None if a side stopped short of it)."""
        from migrate.parity.sides import legacy_side

        capture = (step - 1, step)
        keras_layout = lambda values: to_keras_layout(everything, values)  # noqa: E731
        legacy = legacy_side.train(
            self.pair, self.legacy_params, self.config.seed, self.legacy_prepared, step, lambda message: None,
            capture, model_dir=self.workdir / f"replay-{step}-{len(list(self.workdir.glob('replay-*')))}",
            digest=(lambda values: divergence.digest(keras_layout(values))) if digests else None)
        modern_run = modern.replay(matches, self.initial_weights, step, capture,
                                   divergence.digest if digests else None)
        if any(point not in legacy["captured"] or point not in modern_run["captured"] for point in capture):
            return None
        losses = (losses_from_json(legacy["losses"]).get(step), losses_from_json(modern_run["losses"]).get(step))
        legacy_values = {point: keras_layout(values) for point, values in legacy["captured"].items()}
        return Replay(losses, legacy_values, modern_run["captured"], (legacy["digests"], modern_run["digests"]))

    def load_legacy(self, recorded: dict) -> None:
        self.legacy = from_json_record(recorded["sides"]["legacy"])
        self.initial_weights = traces.decode_weights(recorded["initial_weights"])


def describe_metrics(metrics: dict[str, float]) -> str:
    return ", ".join(f"{key} {value:.6g}" for key, value in sorted(metrics.items()))


def check_steps_run(pair: Pair, side: str, record: dict, steps: int) -> None:
    """A dataset shorter than --steps is a usage error (unless a NaN or a hook stopped the run: that is a finding)."""
    stopped = any(event["event"] == "request_stop" for event in record.get("train_events", []))
    if record["steps_run"] < steps and not stopped and record.get("nan_at") is None and not any(
        value != value for value in losses_from_json(record["losses"]).values()
    ):
        function = "train_input_fn" if side == "legacy" else "train_dataset"
        raise PairError(
            f"{pair.origin}: {function}(params) ran out after {record['steps_run']} batches, but --steps asks for "
            f"{steps}. Repeat the dataset (.repeat()) or lower --steps."
        )


def run_parity(
    config: ParityConfig,
    pair: Pair,
    *,
    side: str = "both",
    against: Path | None = None,
    record: Path | None = None,
    progress: Progress = print,
    serving: ServingOptions = ServingOptions(),
) -> tuple[ParityResult | None, dict]:
    """Run `side` now, take the legacy side from `against`; return the comparison (None if only recording).

    `serving`: whether stage 6 runs, its tolerance and where it keeps both SavedModels.
    """
    recorded = None
    if against is not None:
        recorded = traces.read_trace(against)
        traces.check_config_matches(recorded, config.as_dict(), against)
        if "legacy" not in recorded["sides"]:
            raise traces.TraceError(f"trace {against} holds no legacy side; record one with `--side legacy --record`.")
    prepare_tensorflow_environment(progress)
    with tempfile.TemporaryDirectory(prefix="parity-") as scratch:
        run = Run(config, pair, progress, Path(scratch), serving)
        if side == "legacy":
            run.prepare_legacy()
            run.train_legacy(config.steps, evaluate=True, scenarios=True)
            check_steps_run(pair, "legacy", run.legacy, config.steps)
            record_legacy_export(run)
            if record is not None:
                write_record(record, config, {"legacy": run.legacy}, run.initial_weights, progress)
            return None, {"legacy": run.legacy}
        if recorded is not None:
            run.load_legacy(recorded)
        else:
            run.prepare_legacy()
        result, sides = compare_with_modern(run, train_legacy=recorded is None)
        if (stage := serving_stage(run, result)) is not None:
            result.stages.append(stage)
        if recorded is None and result.ok:  # a run that stopped early did not call every function
            result.notes += [f"warning: {given_as(key, config)}: the pair never reads params[{key!r}] (neither side): "
                             "it changed nothing" for key in unread(config.given, run.read)]
    if record is not None:
        write_record(record, config, sides, run.initial_weights, progress)
    return result, sides


def write_record(path: Path, config: ParityConfig, sides: dict, initial_weights: dict, progress: Progress) -> None:
    json_sides = {name: to_json_record(side) for name, side in sides.items()}
    traces.write_trace(path, traces.build_trace(config.as_dict(), json_sides, initial_weights))
    progress(f"trace written to {path}")


def show_mapping(config: ParityConfig, pair: Pair, progress: Progress = print) -> list[Match]:
    """The mapping only: build both sides' variables, match them, train nothing; the matched non-trainable state
    (batch-norm moving statistics) follows the trainable rows, a state that cannot be matched is said."""
    from migrate.parity.sides.modern_side import ModernSide

    prepare_tensorflow_environment(progress)
    with tempfile.TemporaryDirectory(prefix="parity-") as scratch:
        run = Run(config, pair, progress, Path(scratch))
        run.prepare_legacy()
        modern = ModernSide(pair, run.modern_params, config.seed)
        modern.ensure_built(modern.first_batch()[0])
        matches = mapping_for(pair, legacy_weights(run.legacy), modern.weights, run.legacy.get("constant_init"),
                              modern.initial_constants(), legacy_weights({"variables": run.legacy.get("state", [])}))
        state, problem = state_mapping_for(pair, legacy_weights({"variables": run.legacy.get("state", [])}),
                                           modern.state)
        if problem:
            progress("note: " + problem)
        return matches + state


def compare_with_modern(run: Run, *, train_legacy: bool) -> tuple[ParityResult, dict]:
    from migrate.parity.sides.modern_side import ModernSide, versions

    config, pair, legacy = run.config, run.pair, run.legacy
    run.progress(f"[modern] {pair.name}: build_model and train_dataset")
    modern = run.modern = ModernSide(pair, run.modern_params, config.seed)
    first_batch = modern.first_batch()
    problem = batch_problem(legacy["first_batch"]["structure"], first_batch, legacy["first_batch"]["fingerprint"],
                            values=config.mode == "exact")
    if problem:
        raise PairError(f"{pair.origin}: {problem}.")
    modern.ensure_built(first_batch[0])
    matches = mapping_for(pair, legacy_weights(legacy), modern.weights, legacy["constant_init"], modern.initial_constants(),
                          legacy_weights({"variables": legacy.get("state", [])}))
    state_matches, state_problem = state_mapping_for(pair, legacy_weights({"variables": legacy.get("state", [])}),
                                                     modern.state)
    modern.state_matches = state_matches
    stages = [check_variables(matches, constant_initialisers(matches, legacy["constant_init"]),
                              modern.initial_constants(), state_matches)]
    optimizers = modern.optimizer_names()
    modern_record: dict[str, Any] = {"versions": versions(), "optimizer": optimizers[0] if optimizers else None,
                                     "optimizers": optimizers}
    if "optimizer" in config.params:
        ignored = ignored_optimizer(str(config.params["optimizer"]), side_optimizers(legacy), optimizers)
        if ignored:
            raise PairError(f"{pair.origin}: {ignored}")
    result = ParityResult(config.as_dict(), {"legacy": legacy["versions"], "modern": modern_record["versions"]}, stages)
    if state_problem:
        result.notes.append("note: " + state_problem)
    if legacy.get("unseeded"):
        result.notes.append(
            "warning: two draws of the TF1 initial values with the same seed differ for "
            + ", ".join(legacy["unseeded"]) + ": their initializers draw from a source the seeds do not reach "
            "(seed them, e.g. kernel_initializer=...(seed=1)); the run is not reproducible until then")
    if not stages[0].ok:
        stages += [skipped(name, "an earlier stage failed") for name in ("forward", "one-step", "n-steps", "evaluation")]
        return result, {"legacy": legacy, "modern": modern_record}
    modern.transfer(matches, run.initial_weights)
    # the forward pass runs on the batch the legacy outputs come from: the modern one is equal in exact mode
    # (checked above) and shuffled differently in statistical mode
    batch = run.legacy_batch if run.legacy_batch is not None else first_batch if config.mode == "exact" else None
    stages.append(forward_stage(pair, legacy, modern, batch, config.forward_tolerance, matches))
    forward_failed = not stages[-1].ok
    steps = 1 if forward_failed else config.steps
    full = not forward_failed
    if train_legacy:
        run.train_legacy(steps, evaluate=full, scenarios=full)
        modern.rebuild(matches, run.initial_weights)
    check_steps_run(pair, "legacy", legacy, steps)
    run.progress(f"[modern] Keras fit + callbacks: {steps} steps")
    modern_record.update(modern.train(steps, run.progress))
    check_steps_run(pair, "modern", modern_record, steps)
    one_step = one_step_stage(config, matches + state_matches, legacy, modern_record)
    if legacy["after_first_step"] and modern_record["after_first_step"]:
        note_mapping_checks(one_step, matches, to_keras_layout(matches, legacy["after_first_step"]),
                            modern_record["after_first_step"])
    if forward_failed:
        hint = one_step.details.get("first_variable")
        if hint and "first_input_differs" not in stages[-1].details:
            stages[-1].message += f"; after one step the first variable that differs is {hint}: look at that layer"
            stages[-1].details["first_variable"] = hint
        stages += [skipped(name, "an earlier stage failed") for name in ("one-step", "n-steps", "evaluation")]
        return result, {"legacy": legacy, "modern": modern_record}
    stages.append(one_step)
    if not one_step.ok:
        stages += [skipped(name, "an earlier stage failed") for name in ("n-steps", "evaluation")]
        return result, {"legacy": legacy, "modern": modern_record}
    if pair.has_eval:
        modern_record["metrics"] = modern.evaluate()
        run.progress("  modern evaluation: " + describe_metrics(modern_record["metrics"]))
    make_model = modern.fresh_model(matches, run.initial_weights)
    modern_record["events"] = modern.scenarios(make_model, config.scenarios, run.progress)
    n_steps_and_evaluation(
        result, config, pair, legacy, modern_record,
        lambda step, losses: run.locate_divergence(modern, matches, state_matches, step, losses),
    )
    return result, {"legacy": legacy, "modern": modern_record}


def constant_initialisers(matches: list[Match], legacy_constants: dict) -> dict:
    """The TF1 constants stage 1 compares: none for a transformed row (a folded forget bias or a merge of two gates'
    biases makes a TF1 constant a Keras pattern, and the reverse)."""
    transformed = {w.name for m in matches if m.transform is not None for w in m.tf1}
    return {name: None if name in transformed else value for name, value in legacy_constants.items()}


def note_mapping_checks(one_step: Stage, matches: list[Match], legacy_after: dict, modern_after: dict) -> None:
    """Stage 3 says in which layout it compared, and checks the pairs the mapping could only guess by order."""
    if any(m.transform is not None for m in matches):
        one_step.details["layout"] = "keras: the TF1 values after step 1 went through the mapping's transforms"
    guessed = [m.modern.name for m in matches if m.unverified]
    if not guessed or one_step.status == "not checked":
        return
    swapped = check_order_guesses(matches, legacy_after, modern_after)
    one_step.details["order_guesses"] = {"checked": guessed, "swapped": swapped}
    if swapped and not one_step.ok:
        one_step.message += f"; {swapped}"


def given_as(key: str, config: ParityConfig) -> str:
    """How the user set a params key, as they typed it."""
    flags = {"optimizer": "--optimizer", "learning_rate": "--learning-rate", "batch_size": "--batch-size"}
    value = config.params.get(key)
    return f"{flags[key]} {value}" if key in flags else f"--param {key}={value}"


def one_step_stage(config: ParityConfig, matches: list[Match], legacy: dict, modern: dict) -> Stage:
    """Stage 3 at the first step that updates a variable on both sides (step 1 unless a warm-up holds it still)."""
    legacy_step, modern_step = legacy.get("first_update_step", 1), modern.get("first_update_step", 1)
    tolerance = config.schedule.allowed(1) if config.mode == "exact" else float("inf")
    if tolerance != float("inf") and legacy_step != modern_step:
        describe = lambda step: f"step {step}" if step else "no step"  # noqa: E731
        return Stage("one-step", "failed",
                     f"one step: the first update of a variable comes at {describe(legacy_step)} in TF1 but at "
                     f"{describe(modern_step)} in Keras (a learning-rate schedule or warm-up differs)",
                     {"first_update_step": {"legacy": legacy_step, "modern": modern_step}})
    if tolerance != float("inf") and legacy_step is None:
        return Stage("one-step", "not checked",
                     f"one step: no step of {config.steps} updates any variable on either side (learning rate 0?)")
    step = legacy_step or 1
    stage = check_one_step(
        matches, losses_from_json(legacy["losses"]).get(step), losses_from_json(modern["losses"]).get(step),
        to_keras_layout(matches, legacy["after_first_step"]), modern["after_first_step"], tolerance, step=step,
    )
    return stage


def forward_stage(pair: Pair, legacy: dict, modern, first_batch, tolerance: float, matches: list[Match]) -> Stage:
    if legacy.get("forward") is None:
        return skipped("forward", "model_fn returns no predictions in PREDICT mode")
    if first_batch is None:
        return skipped("forward", "statistical mode against a trace: the legacy first batch is not in the trace")
    from migrate.parity.sides.output_transforms import KNOWN, UnknownTransform, resolve

    try:
        declared = resolve(pair.value("OUTPUT_TRANSFORM"))
    except UnknownTransform as error:
        raise PairError(f"{pair.origin}: {error}.") from error
    outputs, key = legacy["forward"]["outputs"], pair.value("PREDICTION_KEY")
    try:
        stage = check_forward(outputs, modern.forward(first_batch[0], declared and declared[1]), key, tolerance)
    except KeyError as error:
        raise PairError(f"{pair.origin}: {error.args[0]}; set PREDICTION_KEY in the pair file.") from error
    if declared is not None:
        stage.message += f" (the Keras output through OUTPUT_TRANSFORM {declared[0]})"
        stage.details["output_transform"] = declared[0]
    elif not stage.ok:
        for name, function in KNOWN.items():
            candidate = check_forward(outputs, modern.forward(first_batch[0], function), key, tolerance)
            if candidate.ok:
                candidate.message = (f"the model_fn's {candidate.details['compared']} match {name}(Keras output): "
                                     f"max |Δ| = {candidate.details['max_abs_diff']:.6g} (say so with "
                                     f"OUTPUT_TRANSFORM = {name!r} in the pair file)")
                candidate.details["output_transform"] = name
                return candidate
    if not stage.ok:
        notes = sorted({f"{m.transform.name}: {m.transform.rounding}" for m in matches
                        if m.transform is not None and m.transform.rounding})
        if notes and stage.details.get("relative", float("inf")) <= ROUNDING_LEVEL:
            stage.message += "; the mapping's transforms predict rounding-level differences here: " + "; ".join(notes)
            stage.details["transform_rounding"] = notes
        elif any(m.transform is not None and m.transform.name == "lstm_bias" for m in matches):
            stage.message += f"; {FORGET_BIAS_NOTE}"
        located = locate_forward_difference(matches, legacy["forward"].get("layer_inputs") or {},
                                            modern.layer_inputs(first_batch[0]), tolerance)
        if located is not None:
            stage.message += f"; {located[0]}"
            stage.details.update(located[1])
    return stage


Locator = Callable[[int, tuple[float | None, float | None]], tuple[str, dict[str, Any]] | None]


def n_steps_and_evaluation(result: ParityResult, config: ParityConfig, pair: Pair, legacy: dict, modern: dict,
                           locate: Locator | None = None) -> None:
    result.losses = compare_losses(
        losses_from_json(legacy["losses"]), losses_from_json(modern["losses"]), config.schedule,
        checked=config.mode == "exact",
    )
    if pair.has("legacy_hooks"):
        result.events.append(compare_events(
            "train (pair hooks)", without_losses(legacy["train_events"]), without_losses(modern["train_events"])
        ))
    for name in config.scenarios:
        scenario = SCENARIOS.get(name)
        legacy_events = legacy.get("events", {}).get(name, [])
        modern_events = modern.get("events", {}).get(name, [])
        if scenario is not None:
            legacy_events = scenario.normalize_both(scenario.normalize_legacy(legacy_events))
            modern_events = scenario.normalize_both(modern_events)
        result.events.append(compare_events(name, legacy_events, modern_events))
    result.stages.append(check_n_steps(result.losses, result.events))
    violation = result.losses.first_violation
    if violation is not None and locate is not None and config.mode == "exact":
        located = locate(violation.step, (violation.legacy, violation.modern))
        if located is not None:
            result.stages[-1].message += f"; {located[0]}"
            result.stages[-1].details["divergence"] = located[1]
    if result.losses.first_violation is not None:
        hint = optimizer_advice(side_optimizers(legacy), side_optimizers(modern))
        if hint:
            result.stages[-1].message += f"; {hint}"
    if not result.stages[-1].ok:
        result.stages.append(skipped("evaluation", "an earlier stage failed"))
    elif "metrics" in legacy and "metrics" in modern:
        result.metrics = compare_metrics(legacy["metrics"], modern["metrics"], accuracy_bar=config.accuracy_bar,
                                         max_accuracy_gap=config.max_accuracy_gap)
        result.stages.append(check_evaluation(result.metrics))
        if "loss" in result.metrics.legacy:
            result.notes.append(LOSS_NOTE)
    else:
        result.stages.append(skipped("evaluation", "the pair gives no eval_input_fn / eval_dataset"))
    if config.mode == "exact" and result.losses.schedule.start not in (0.0, float("inf")):
        result.notes.append("note: " + result.losses.schedule.explanation)


def side_optimizers(record: dict) -> list[str]:
    """The optimizers a side record names (older traces hold one, or none for plain gradient descent)."""
    if "optimizers" in record:
        return list(record["optimizers"])
    return [record["optimizer"]] if record.get("optimizer") else []
