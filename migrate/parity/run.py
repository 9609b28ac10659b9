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
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from migrate.core.arrays import Array
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
from migrate.core.side_trace import SideTrace, write_side_trace
from migrate.parity import divergence
from migrate.parity import trace as traces
from migrate.parity.advice import ignored_optimizer, optimizer_advice
from migrate.parity.compare import EventComparison, compare_events, compare_losses, compare_metrics
from migrate.parity.config import ParityConfig
from migrate.parity.options import FLAGS, PARAM_SHORTCUTS, ParityOptions, Progress
from migrate.parity.pair import Pair, PairError
from migrate.parity.read_params import ReadParams, unread
from migrate.parity.result import ParityResult
from migrate.parity.serving.stage import record_legacy_export, serving_stage
from migrate.parity.stages import (
    ROUNDING_LEVEL,
    TITLES,
    Stage,
    batch_problem,
    check_evaluation,
    check_forward,
    check_n_steps,
    check_one_step,
    check_order_guesses,
    check_variables,
    locate_forward_difference,
    run_checks,
    skipped,
)

if TYPE_CHECKING:  # the legacy side imports tf.estimator, which TF 2.21 lacks: imported where it runs
    from migrate.parity.sides.legacy_side import Prepared
    from migrate.parity.sides.modern_side import ModernSide

Constants = dict[str, float | None]
"""Each variable's initial constant by name (None: not one constant)."""
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


def map_both(pair: Pair, trainable: Sequence[Weight], state: Sequence[Weight], constants: Constants,
             modern: ModernSide) -> tuple[list[Match], list[Match], str | None]:
    """The TF1 `trainable` variables (each initial constant in `constants`) mapped onto the Keras side's, checked
    before anything trains (a bad mapping is a usage error naming the fix); the non-trainable `state` (batch-norm
    moving statistics) mapped alike, by the `variable_map` rows naming it; and why that state is not compared
    (None: it is) — a state that cannot be matched is not an error, its effect still shows in the losses."""
    variable_map, state_map = split_variable_map(pair.value("variable_map"), {weight.name for weight in state})
    try:
        matches = infer_mapping(trainable, modern.weights, variable_map, legacy_constants=constants,
                                modern_constants=modern.initial_constants())
    except MappingError as error:
        raise PairError(f"{pair.origin}: {error}") from error
    if not state:  # a Keras-only state (batch norm TF1 lacks) shows in the forward pass, not here
        return matches, [], None
    try:
        return matches, infer_mapping(state, modern.state, state_map), None
    except MappingError as error:
        return matches, [], f"the non-trainable state is not compared: {error}"


class Replay(NamedTuple):
    """Both sides replayed to a step: its losses, each side's snapshots after step−1 and step (by Keras name, in the
    Keras layout), and each side's digests of every step (empty unless asked for)."""

    losses: tuple[float | None, float | None]
    legacy: dict[int, dict[str, Array]]
    modern: dict[int, dict[str, Array]]
    digests: tuple[dict[int, dict[str, str]], dict[int, dict[str, str]]]


class Run:
    """One parity run's state while it goes through the stages.

    `compare` builds the modern side (`prepare_modern` sets `modern`, `matches`, `state_matches`, `record`,
    `result` and `batch`), then runs stages 1–5 against the legacy side the run holds (prepared and trained
    here, or from a trace), as one pipeline of named checks (`stages.run_checks`: the first that fails stops the rest). Training runs
    once, in the one-step check, for stages 3–5; after a failed forward pass both sides train one step only, to
    name the first variable whose update differs.
    """

    def __init__(self, config: ParityConfig, pair: Pair, options: ParityOptions, workdir: Path,
                 serving_dir: Path | None = None) -> None:
        self.config, self.pair, self.options, self.progress, self.workdir = config, pair, options, options.progress, workdir
        self.serving_dir = serving_dir or workdir / "serving"  # where stage 6 keeps both SavedModels
        self.legacy = SideTrace("legacy")
        self.legacy_prepared: Prepared | None = None  # None when the legacy side comes from a trace
        self.initial_weights: dict[str, Array] = {}
        self.read: set[str] = set()  # the params keys any pair function looked up
        self.legacy_params = ReadParams(config.legacy_params, self.read)
        self.modern_params = ReadParams(config.modern_params, self.read)

    # legacy side -----------------------------------------------------------------------------------------------
    def prepare_legacy(self) -> None:
        from migrate.parity.sides import legacy_side

        self.progress(f"[legacy] {self.pair.name}: model_fn in an Estimator")
        prepared = legacy_side.prepare(self.pair, self.legacy_params, self.config.seed, self.workdir / "legacy")
        self.legacy_prepared, self.legacy, self.initial_weights = prepared, prepared.trace, prepared.initial_weights

    def train_legacy(self, steps: int, *, evaluate: bool, scenarios: bool) -> None:
        from migrate.parity.sides import legacy_side

        params, seed, prepared = self.legacy_params, self.config.seed, self.prepared()
        self.progress(f"[legacy] Estimator + SessionRunHooks: {steps} steps")
        legacy_side.train(self.pair, params, seed, prepared, steps, self.progress, self.legacy)
        if evaluate and self.pair.has_eval:
            self.legacy.metrics = legacy_side.evaluate(self.pair, params, seed, prepared.model_dir)
            self.progress("  legacy evaluation: " + describe_metrics(self.legacy.metrics))
        if scenarios:
            self.legacy.events = self.pair.scenarios("legacy", params, self.config.scenarios, self.progress,
                                                     self.workdir / "legacy" / "scenarios")

    def prepared(self) -> Prepared:
        """The legacy side prepared in this process (never called when it comes from a trace)."""
        assert self.legacy_prepared is not None, "the legacy side comes from a trace: it cannot train here"
        return self.legacy_prepared

    # modern side and the stages -----------------------------------------------------------------------------------
    def prepare_modern(self) -> None:
        """The Keras side built on its first batch (checked against the legacy one), mapped, its trace started."""
        from migrate.parity.sides.modern_side import ModernSide, versions

        config, pair, legacy = self.config, self.pair, self.legacy
        self.progress(f"[modern] {pair.name}: build_model and train_dataset")
        modern = self.modern = ModernSide(pair, self.modern_params, config.seed)
        first_batch = modern.first_batch()
        assert legacy.first_batch is not None, "a prepared or recorded legacy side has its first batch"
        problem = batch_problem(legacy.first_batch.structure, first_batch, legacy.first_batch.fingerprint,
                                values=config.mode == "exact")
        if problem:
            raise PairError(f"{pair.origin}: {problem}.")
        modern.ensure_built(first_batch[0])
        self.matches, self.state_matches, state_problem = map_both(pair, legacy.variables, legacy.state,
                                                                   legacy.constant_init, modern)
        modern.state_matches = self.state_matches
        self.record = SideTrace("modern", versions=versions(), optimizers=modern.optimizer_names())
        if "optimizer" in config.params:
            ignored = ignored_optimizer(str(config.params["optimizer"]), legacy.optimizers, self.record.optimizers)
            if ignored:
                raise PairError(f"{pair.origin}: {ignored}")
        self.result = ParityResult(config.as_dict(), {"legacy": legacy.versions, "modern": self.record.versions}, [],
                                   notes=notes_before_training(legacy, state_problem))
        # the forward pass runs on the batch the legacy outputs come from: the modern one is equal in exact mode
        # (checked above) and shuffled differently in statistical mode
        prepared = self.legacy_prepared
        self.batch = prepared.first_batch if prepared is not None else first_batch if config.mode == "exact" else None

    def compare(self) -> tuple[ParityResult, SideTrace]:
        """Run the stages: the result so far (serving is the caller's) and the modern side's trace."""
        self.prepare_modern()
        named = (("variables", self.variables), ("forward", self.forward), ("one-step", self.one_step),
                 ("n-steps", self.n_steps), ("evaluation", self.evaluation))
        result = self.result
        result.stages = run_checks([(name, TITLES[name], check) for name, check in named])
        if result.losses is not None and self.config.mode == "exact" and result.losses.schedule.start not in (0.0, float("inf")):
            result.notes.append("note: " + result.losses.schedule.explanation)
        return result, self.record

    def variables(self) -> Stage:
        # the TF1 constants compared: none for a transformed row (a folded forget bias or a merge of two gates' biases
        # makes a TF1 constant a Keras pattern, and the reverse)
        transformed = {w.name for m in self.matches if m.transform is not None for w in m.tf1}
        constants = {name: None if name in transformed else value for name, value in self.legacy.constant_init.items()}
        return check_variables(self.matches, constants, self.modern.initial_constants(), self.state_matches)

    def forward(self) -> Stage:
        self.modern.transfer(self.matches, self.initial_weights)
        stage = self.forward_pass()
        if not stage.ok:
            self.train(1, full=False)
            hint = self.first_update().details.get("first_variable")
            if hint and "first_input_differs" not in stage.details:
                stage.message += f"; after one step the first variable that differs is {hint}: look at that layer"
                stage.details["first_variable"] = hint
        return stage

    def one_step(self) -> Stage:
        self.train(self.config.steps, full=True)
        return self.first_update()

    def train(self, steps: int, *, full: bool) -> None:
        """Both sides `steps` steps (legacy only when not from a trace); `full`: evaluation and scenarios too."""
        if self.legacy_prepared is not None:
            self.train_legacy(steps, evaluate=full, scenarios=full)
            # Keras 2 invalidates models built before TF1 graph code creates `tf.compat.v1.layers` (the Estimator's
            # training does): the model that served stages 1–2 is replaced by a fresh one holding the initial weights
            self.modern.model = self.modern.fresh_model(self.matches, self.initial_weights)()
        check_steps_run(self.pair, self.legacy, steps)
        self.progress(f"[modern] Keras fit + callbacks: {steps} steps")
        self.modern.train(steps, self.progress, self.record)
        check_steps_run(self.pair, self.record, steps)

    def first_update(self) -> Stage:
        """Stage 3 at the first step that updates a variable on both sides (step 1 unless a warm-up holds it still),
        with the mapping's order guesses checked on the values after it."""
        config, legacy, record, matches = self.config, self.legacy, self.record, self.matches
        legacy_step, modern_step = legacy.first_update_step, record.first_update_step
        tolerance = config.schedule.allowed(1) if config.mode == "exact" else float("inf")
        if tolerance != float("inf") and legacy_step != modern_step:
            stage = Stage("one-step", "failed",
                          f"one step: the first update of a variable comes at {describe_step(legacy_step)} in TF1 but "
                          f"at {describe_step(modern_step)} in Keras (a learning-rate schedule or warm-up differs)",
                          {"first_update_step": {"legacy": legacy_step, "modern": modern_step}})
        elif tolerance != float("inf") and legacy_step is None:
            stage = Stage("one-step", "not checked",
                          f"one step: no step of {config.steps} updates any variable on either side (learning rate 0?)")
        else:
            step, everything = legacy_step or 1, matches + self.state_matches
            stage = check_one_step(everything, legacy.losses.get(step), record.losses.get(step),
                                   to_keras_layout(everything, legacy.after_first_step), record.after_first_step,
                                   tolerance, step=step)
        if legacy.after_first_step and record.after_first_step:
            note_mapping_checks(stage, matches, to_keras_layout(matches, legacy.after_first_step),
                                record.after_first_step)
        return stage

    def n_steps(self) -> Stage:
        """Stage 4: every step's loss and the event sequences; where the losses part, what differs (a replay)."""
        config, pair, legacy, record, result = self.config, self.pair, self.legacy, self.record, self.result
        if pair.has_eval:
            record.metrics = self.modern.evaluate()
            self.progress("  modern evaluation: " + describe_metrics(record.metrics))
        record.events = pair.scenarios("modern", self.modern.params, config.scenarios, self.progress,
                                       self.modern.fresh_model(self.matches, self.initial_weights))
        result.losses = compare_losses(legacy.losses, record.losses, config.schedule, checked=config.mode == "exact")
        result.events = self.compared_events()
        stage = check_n_steps(result.losses, result.events)
        violation = result.losses.first_violation
        if violation is not None and config.mode == "exact":
            located = self.locate_divergence(violation.step, (violation.legacy, violation.modern))
            if located is not None:
                stage.message += f"; {located[0]}"
                stage.details["divergence"] = located[1]
        if violation is not None and (hint := optimizer_advice(legacy.optimizers, record.optimizers)):
            stage.message += f"; {hint}"
        return stage

    def locate_divergence(self, step: int, recorded: tuple[float | None, float | None]) -> tuple[str, dict[str, Any]] | None:
        """Replay both sides to `step` and compare every variable before and after it (`divergence.locate`)."""
        if self.legacy_prepared is None:
            return ("not located: the legacy side comes from a trace; run both sides on TF 2.15 to compare the "
                    "variables at that step"), {}
        self.progress(f"[locate] replaying both sides to step {step} to compare every variable before and after it")
        everything = self.matches + self.state_matches
        replay = self.replay(step, digests=True)
        if replay is None:
            return None
        message, details = divergence.locate(step, everything, replay.legacy, replay.modern, *replay.losses)
        parted = divergence.first_parting(everything, *replay.digests) if details["verdict"] == "weights before" else None
        if parted is not None and parted < step - 1:
            self.progress(f"[locate] the weights first part at step {parted}: replaying to it")
            earlier = self.replay(parted, digests=False)
            if earlier is not None:
                earlier_message, details["first_parting"] = divergence.locate(
                    parted, everything, earlier.legacy, earlier.modern, *earlier.losses)
                message += f"; they first part at step {parted}: {earlier_message}"
        if (note := divergence.rounding_note(details)) is not None:
            message += f"; {note}"
        if replay.losses != recorded:
            message += (f" (caution: the replay's step-{step} losses {replay.losses[0]!r} / {replay.losses[1]!r} are not "
                        f"the run's {recorded[0]!r} / {recorded[1]!r}: a side is not deterministic)")
            details["replay_reproduced"] = False
        return message, details

    def replay(self, step: int, *, digests: bool) -> Replay | None:
        """Both sides again from the initial weights to `step` (None if a side stopped short of it)."""
        from migrate.parity.sides import legacy_side

        capture = (step - 1, step)
        keras_layout = partial(to_keras_layout, self.matches + self.state_matches)
        legacy = SideTrace("legacy")
        legacy_snapshots = legacy_side.train(
            self.pair, self.legacy_params, self.config.seed, self.prepared(), step, lambda message: None, legacy, capture,
            model_dir=self.workdir / f"replay-{step}-{len(list(self.workdir.glob('replay-*')))}",
            digest=(lambda values: divergence.digest(keras_layout(values))) if digests else None)
        modern_run = SideTrace("modern")
        modern_snapshots = self.modern.train(step, lambda message: None, modern_run, capture,
                                             self.modern.fresh_model(self.matches, self.initial_weights)(),
                                             divergence.digest if digests else None)
        if any(point not in legacy_snapshots.captured or point not in modern_snapshots.captured for point in capture):
            return None
        legacy_values = {point: keras_layout(values) for point, values in legacy_snapshots.captured.items()}
        return Replay((legacy.losses.get(step), modern_run.losses.get(step)), legacy_values, modern_snapshots.captured,
                      (legacy_snapshots.digests, modern_snapshots.digests))

    def evaluation(self) -> Stage:
        legacy, record, result, config = self.legacy, self.record, self.result, self.config
        if not (legacy.metrics and record.metrics):
            return skipped("evaluation", "the pair gives no eval_input_fn / eval_dataset")
        result.metrics = compare_metrics(legacy.metrics, record.metrics, accuracy_bar=config.accuracy_bar,
                                         max_accuracy_gap=config.max_accuracy_gap)
        if "loss" in result.metrics.legacy:
            result.notes.append(LOSS_NOTE)
        return check_evaluation(result.metrics)

    def compared_events(self) -> list[EventComparison]:
        """The pair hooks' training events (when it has hooks), then each scenario's, normalised as it says."""
        legacy, modern, compared = self.legacy, self.record, []
        if self.pair.has("legacy_hooks"):
            compared.append(compare_events(
                "train (pair hooks)", without_losses(legacy.train_events), without_losses(modern.train_events)))
        for name in self.config.scenarios:  # names of SCENARIOS (`ParityOptions` refuses any other)
            scenario = SCENARIOS[name]
            compared.append(compare_events(
                name, scenario.normalize_both(scenario.normalize_legacy(legacy.events.get(name, []))),
                scenario.normalize_both(modern.events.get(name, [])), description=scenario.description,
                expected_differences=scenario.expected_differences))
        return compared

    def forward_pass(self) -> Stage:
        """Stage 2: the outputs on the first batch (through the pair's OUTPUT_TRANSFORM, or a known one that makes
        them match); where they differ, the first layer whose input differs."""
        pair, legacy, modern, first_batch, matches = self.pair, self.legacy, self.modern, self.batch, self.matches
        tolerance = self.config.forward_tolerance
        if legacy.forward is None:
            return skipped("forward", "model_fn returns no predictions in PREDICT mode")
        if first_batch is None:
            return skipped("forward", "statistical mode against a trace: the legacy first batch is not in the trace")
        from migrate.parity.sides.output_transforms import KNOWN, UnknownTransform, resolve

        try:
            declared = resolve(pair.value("OUTPUT_TRANSFORM"))
        except UnknownTransform as error:
            raise PairError(f"{pair.origin}: {error}.") from error
        outputs, key = legacy.forward.value, pair.value("PREDICTION_KEY")
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
            located = locate_forward_difference(matches, legacy.forward.layer_inputs,
                                                modern.layer_inputs(first_batch[0]), tolerance)
            if located is not None:
                stage.message += f"; {located[0]}"
                stage.details.update(located[1])
        return stage


def describe_metrics(metrics: dict[str, float]) -> str:
    return ", ".join(f"{key} {value:.6g}" for key, value in sorted(metrics.items()))


def check_steps_run(pair: Pair, record: SideTrace, steps: int) -> None:
    """A dataset shorter than --steps is a usage error (unless a NaN or a hook stopped the run: that is a finding)."""
    stopped = any(event["event"] == "request_stop" for event in record.train_events)
    if record.steps_run < steps and not stopped and record.nan_at is None and not any(
        value != value for value in record.losses.values()
    ):
        function = "train_input_fn" if record.side == "legacy" else "train_dataset"
        raise PairError(
            f"{pair.origin}: {function}(params) ran out after {record.steps_run} batches, but --steps asks for "
            f"{steps}. Repeat the dataset (.repeat()) or lower --steps."
        )


def run_parity(
    config: ParityConfig,
    pair: Pair,
    options: ParityOptions,
    *,
    side: str = "both",
    against: Path | None = None,
    record: Path | None = None,
    serving_dir: Path | None = None,
) -> tuple[ParityResult | None, dict[str, SideTrace]]:
    """Run `side` now, take the legacy side from `against`; return the comparison (None if only recording).

    `options` (those `config` was made from) say whether stage 6 runs, its tolerance and where progress goes;
    `serving_dir` keeps both SavedModels (None: the run's scratch directory, gone after the run).
    """
    progress = options.progress
    recorded = None
    if against is not None:
        recorded = traces.read_trace(against)
        traces.check_config_matches(recorded, config.as_dict(), against)
        if "legacy" not in recorded.sides or recorded.sides["legacy"].first_batch is None:
            raise traces.TraceError(f"trace {against} holds no legacy side (with its first batch) to compare with; "
                                    "record one with `migrate parity --side legacy --record PATH`.")
    prepare_tensorflow_environment(progress)
    with tempfile.TemporaryDirectory(prefix="parity-") as scratch:
        run = Run(config, pair, options, Path(scratch), serving_dir)
        result: ParityResult | None = None
        if side == "legacy":
            run.prepare_legacy()
            run.train_legacy(config.steps, evaluate=True, scenarios=True)
            check_steps_run(pair, run.legacy, config.steps)
            if pair.has_serving and options.serving:
                record_legacy_export(run)
            sides = {"legacy": run.legacy}
        else:
            if recorded is not None:
                run.legacy, run.initial_weights = recorded.sides["legacy"], recorded.initial_weights
            else:
                run.prepare_legacy()
            result, modern = run.compare()
            if (stage := serving_stage(run, result)) is not None:
                result.stages.append(stage)
            if recorded is None and result.ok:  # a run that stopped early did not call every function
                result.notes += [f"warning: {given_as(key, config)}: the pair never reads params[{key!r}] (neither "
                                 "side): it changed nothing" for key in unread(config.given, run.read)]
            sides = {"legacy": run.legacy, "modern": modern}
    if record is not None:
        write_side_trace(record, traces.RecordedRun(config.as_dict(), sides, run.initial_weights))
        progress(f"trace written to {record}")
    return result, sides


def show_mapping(config: ParityConfig, pair: Pair, progress: Progress = print) -> list[Match]:
    """The mapping only: build both sides' variables, match them, train nothing; the matched non-trainable state
    (batch-norm moving statistics) follows the trainable rows, a state that cannot be matched is said."""
    from migrate.parity.sides.modern_side import ModernSide

    prepare_tensorflow_environment(progress)
    with tempfile.TemporaryDirectory(prefix="parity-") as scratch:
        run = Run(config, pair, ParityOptions(progress=progress), Path(scratch))
        run.prepare_legacy()
        modern = ModernSide(pair, run.modern_params, config.seed)
        modern.ensure_built(modern.first_batch()[0])
        legacy = run.legacy
        matches, state, problem = map_both(pair, legacy.variables, legacy.state, legacy.constant_init, modern)
        if problem:
            progress("note: " + problem)
        return matches + state


def notes_before_training(legacy: SideTrace, state_problem: str | None) -> list[str]:
    """What the result says whatever the stages find: state left uncompared, initial values the seeds miss."""
    notes = [] if state_problem is None else ["note: " + state_problem]
    if legacy.unseeded:
        notes.append(
            "warning: two draws of the TF1 initial values with the same seed differ for "
            + ", ".join(legacy.unseeded) + ": their initializers draw from a source the seeds do not reach "
            "(seed them, e.g. kernel_initializer=...(seed=1)); the run is not reproducible until then")
    return notes


def note_mapping_checks(one_step: Stage, matches: list[Match], legacy_after: dict[str, Array],
                        modern_after: dict[str, Array]) -> None:
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
    value = config.params.get(key)
    return f"{FLAGS[key].spelling} {value}" if key in PARAM_SHORTCUTS else f"--param {key}={value}"


def describe_step(step: int | None) -> str:
    return f"step {step}" if step else "no step"
