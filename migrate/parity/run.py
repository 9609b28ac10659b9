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
from typing import Any

import numpy as np

from migrate.core.protocol import without_losses
from migrate.core.scenarios import SCENARIOS
from migrate.parity import trace as traces
from migrate.parity.compare import compare_events, compare_losses, compare_metrics
from migrate.parity.config import ParityConfig
from migrate.parity.mapping import FORGET_BIAS_NOTE, MappingError, Match, Weight, infer_mapping, to_keras_layout
from migrate.parity.pair import Pair, PairError
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
    """A side record as the trace stores it (arrays base64-encoded)."""
    result = dict(record)
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
                modern_constants: dict | None = None) -> list[Match]:
    """The pair's mapping, checked before anything trains (a bad one is a usage error naming the fix)."""
    try:
        return infer_mapping(legacy, modern, pair.value("variable_map"), legacy_constants=legacy_constants,
                             modern_constants=modern_constants)
    except MappingError as error:
        raise PairError(f"{pair.origin}: {error}") from error


class Run:
    """One parity run's state while it goes through the stages."""

    def __init__(self, config: ParityConfig, pair: Pair, progress: Progress, workdir: Path,
                 serving: ServingOptions = ServingOptions()) -> None:
        self.config, self.pair, self.progress, self.workdir = config, pair, progress, workdir
        self.serving, self.serving_dir = serving, serving.directory or workdir / "serving"
        self.legacy: dict[str, Any] = {}
        self.initial_weights: dict[str, np.ndarray] = {}
        self.legacy_batch: Any = None

    # legacy side -----------------------------------------------------------------------------------------------
    def prepare_legacy(self) -> None:
        from migrate.parity.sides import legacy_side

        self.progress(f"[legacy] {self.pair.name}: model_fn in an Estimator")
        prepared = legacy_side.prepare(self.pair, self.config.legacy_params, self.config.seed, self.workdir / "legacy")
        self.legacy_prepared = prepared
        self.legacy = dict(prepared["record"])
        self.initial_weights = prepared["initial_weights"]
        self.legacy_batch = prepared["first_batch"]

    def train_legacy(self, steps: int, *, evaluate: bool, scenarios: bool) -> None:
        from migrate.parity.sides import legacy_side

        params, seed = self.config.legacy_params, self.config.seed
        self.progress(f"[legacy] Estimator + SessionRunHooks: {steps} steps")
        self.legacy.update(legacy_side.train(self.pair, params, seed, self.legacy_prepared, steps, self.progress))
        if evaluate and self.pair.has_eval:
            self.legacy["metrics"] = legacy_side.evaluate(self.pair, params, seed, self.legacy_prepared)
            self.progress("  legacy evaluation: " + describe_metrics(self.legacy["metrics"]))
        if scenarios:
            self.legacy["events"] = legacy_side.scenarios(
                self.pair, params, self.workdir / "legacy", self.config.scenarios, self.progress
            )

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
    if record is not None:
        write_record(record, config, sides, run.initial_weights, progress)
    return result, sides


def write_record(path: Path, config: ParityConfig, sides: dict, initial_weights: dict, progress: Progress) -> None:
    json_sides = {name: to_json_record(side) for name, side in sides.items()}
    traces.write_trace(path, traces.build_trace(config.as_dict(), json_sides, initial_weights))
    progress(f"trace written to {path}")


def show_mapping(config: ParityConfig, pair: Pair, progress: Progress = print) -> list[Match]:
    """The mapping only: build both sides' variables, match them, train nothing."""
    from migrate.parity.sides.modern_side import ModernSide

    prepare_tensorflow_environment(progress)
    with tempfile.TemporaryDirectory(prefix="parity-") as scratch:
        run = Run(config, pair, progress, Path(scratch))
        run.prepare_legacy()
        modern = ModernSide(pair, config.modern_params, config.seed)
        modern.ensure_built(modern.first_batch()[0])
        return mapping_for(pair, legacy_weights(run.legacy), modern.weights, run.legacy.get("constant_init"),
                           modern.initial_constants())


def compare_with_modern(run: Run, *, train_legacy: bool) -> tuple[ParityResult, dict]:
    from migrate.parity.sides.modern_side import ModernSide, versions

    config, pair, legacy = run.config, run.pair, run.legacy
    run.progress(f"[modern] {pair.name}: build_model and train_dataset")
    modern = run.modern = ModernSide(pair, config.modern_params, config.seed)
    first_batch = modern.first_batch()
    problem = batch_problem(legacy["first_batch"]["structure"], first_batch, legacy["first_batch"]["fingerprint"],
                            values=config.mode == "exact")
    if problem:
        raise PairError(f"{pair.origin}: {problem}.")
    modern.ensure_built(first_batch[0])
    matches = mapping_for(pair, legacy_weights(legacy), modern.weights, legacy["constant_init"], modern.initial_constants())
    stages = [check_variables(matches, constant_initialisers(matches, legacy["constant_init"]), modern.initial_constants())]
    modern_record: dict[str, Any] = {"versions": versions(), "optimizer": modern.optimizer_name()}
    result = ParityResult(config.as_dict(), {"legacy": legacy["versions"], "modern": modern_record["versions"]}, stages)
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
    legacy_after = to_keras_layout(matches, legacy["after_first_step"])
    one_step = check_one_step(
        matches, losses_from_json(legacy["losses"]).get(1 + 0), losses_from_json(modern_record["losses"]).get(1),
        legacy_after, modern_record["after_first_step"],
        config.schedule.allowed(1) if config.mode == "exact" else float("inf"),
    )
    note_mapping_checks(one_step, matches, legacy_after, modern_record["after_first_step"])
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
    n_steps_and_evaluation(result, config, pair, legacy, modern_record)
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


def forward_stage(pair: Pair, legacy: dict, modern, first_batch, tolerance: float, matches: list[Match]) -> Stage:
    if legacy.get("forward") is None:
        return skipped("forward", "model_fn returns no predictions in PREDICT mode")
    if first_batch is None:
        return skipped("forward", "statistical mode against a trace: the legacy first batch is not in the trace")
    try:
        stage = check_forward(legacy["forward"]["outputs"], modern.forward(first_batch[0]),
                              pair.value("PREDICTION_KEY"), tolerance)
    except KeyError as error:
        raise PairError(f"{pair.origin}: {error.args[0]}; set PREDICTION_KEY in the pair file.") from error
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


def n_steps_and_evaluation(result: ParityResult, config: ParityConfig, pair: Pair, legacy: dict, modern: dict) -> None:
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
    if result.losses.first_violation is not None:
        hint = optimizer_hint(legacy.get("optimizer"), modern.get("optimizer"))
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


def optimizer_hint(legacy_optimizer: str | None, modern_optimizer: str | None) -> str | None:
    """Why losses drift when the TF1 graph has optimizer slots and the Keras side is not its TF1-exact twin."""
    if not legacy_optimizer or not modern_optimizer or modern_optimizer.startswith("modern.optimizers."):
        return None
    twin = legacy_optimizer.removesuffix("Optimizer")
    return (f"the TF1 graph trains with {legacy_optimizer}, the Keras model with {modern_optimizer.rpartition('.')[2]} "
            "(Keras' own optimizers do not run TF1's update: README 'Exact or native optimizer?'): compile with "
            f"modern.optimizers.{twin}, its TF1-exact twin, or allow the drift with --loss-tolerance REL")
