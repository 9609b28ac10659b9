"""The event-sequence scenarios both sides run, and their documented differences.

Each scenario is run by `legacy.parity_scenarios` (Estimator + hooks) and
`modern.parity_scenarios` (Keras + callbacks) under the same name — the MNIST
pair hands them to the parity engine — and the
recorded sequences are compared after `normalize_legacy`, which rewrites only
the differences listed in `expected_differences` — known, documented and shown
in the report, never silently hidden. Sizes are small: these check call order,
not learning.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from migrate.core.protocol import Event

SCENARIO_BATCH_SIZE = 32
TRAIN_STEPS = 5
STOP_AT_STEP = 3
EXHAUSTED_EXAMPLES = 3 * SCENARIO_BATCH_SIZE + SCENARIO_BATCH_SIZE // 2  # 3.5 batches: last one partial
EVAL_EXAMPLES = EXHAUSTED_EXAMPLES
TRAIN_AND_EVALUATE_EPOCH_STEPS = 3
TRAIN_AND_EVALUATE_EPOCHS = 2


def identity(events: list[Event]) -> list[Event]:
    return list(events)


def evaluation_after_its_train_step(events: list[Event]) -> list[Event]:
    """Move each evaluate block that Estimator runs inside step k's after_run round to after after_run(k).

    Estimator's `train_and_evaluate` evaluates from the CheckpointSaverHook's
    listener, i.e. during the `after_run` round of step k, so hooks listed
    after the saver see `after_run(k)` only once evaluation has finished;
    Keras evaluates after `on_train_batch_end(k)`, at the end of the epoch.
    """
    result: list[Event] = []
    pending: list[Event] = []
    open_train_step = None
    for event in events:
        if event["phase"] == "train" and event["event"] == "before_run":
            open_train_step = event["step"]
        if event["phase"] == "evaluate" and open_train_step is not None:
            pending.append(event)
            continue
        result.append(event)
        if event["phase"] == "train" and event["event"] == "after_run":
            result.extend(pending)
            pending.clear()
            open_train_step = None
    return result + pending


def _is_exhaustion_run(events: list[Event], index: int) -> bool:
    """A before_run directly followed by end: the run that found the input exhausted."""
    event = events[index]
    following = events[index + 1] if index + 1 < len(events) else None
    return (
        event["event"] == "before_run" and following is not None
        and following["event"] == "end" and following["phase"] == event["phase"]
    )


def without_repeated_validation_exhaustion(events: list[Event]) -> list[Event]:
    """Drop the exhausted-input run of every evaluation after the first.

    Keras learns the size of a validation set of unknown cardinality on its
    first pass and stops before the failing run afterwards (Keras 2.15); TF1
    reads each evaluation until OutOfRange. Applied to both sides.
    """
    result: list[Event] = []
    evaluations = 0
    for index, event in enumerate(events):
        if event["phase"] == "evaluate" and event["event"] == "begin":
            evaluations += 1
        if evaluations > 1 and event["phase"] == "evaluate" and _is_exhaustion_run(events, index):
            continue
        result.append(event)
    return result


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    expected_differences: tuple[str, ...] = ()
    normalize_legacy: Callable[[list[Event]], list[Event]] = field(default=identity)
    normalize_both: Callable[[list[Event]], list[Event]] = field(default=identity)


SCENARIOS: dict[str, Scenario] = {
    scenario.name: scenario
    for scenario in (
        Scenario(
            "train-steps",
            f"train {TRAIN_STEPS} steps: Estimator.train(steps={TRAIN_STEPS}) vs fit(steps_per_epoch={TRAIN_STEPS}, epochs=1)",
            ("Estimator stops through its own StopAtStepHook, placed after user hooks, so the recorder "
             "sees no request_stop; Keras simply runs out of steps: neither side records a stop request.",),
        ),
        Scenario(
            "data-exhausted",
            f"train until {EXHAUSTED_EXAMPLES} examples (3.5 batches, no repeat) run out",
        ),
        Scenario(
            "stop-at-step",
            f"a hook/callback requests a stop at step {STOP_AT_STEP} of at most {TRAIN_STEPS}",
            ("TF1: run_context.request_stop(); Keras: model.stop_training = True. Both end after that step.",),
        ),
        Scenario("evaluate", f"evaluate one pass over {EVAL_EXAMPLES} examples (last batch partial)"),
        Scenario("predict", f"predict one pass over {EVAL_EXAMPLES} examples (generator fully consumed)"),
        Scenario(
            "train-and-evaluate",
            f"tf.estimator.train_and_evaluate (checkpoint every {TRAIN_AND_EVALUATE_EPOCH_STEPS} steps, "
            f"throttle 0) vs fit(epochs={TRAIN_AND_EVALUATE_EPOCHS}, steps_per_epoch={TRAIN_AND_EVALUATE_EPOCH_STEPS}, "
            "validation_data=...)",
            (
                "Estimator evaluates inside the CheckpointSaverHook's after_run of the checkpoint step; Keras after "
                "on_train_batch_end, at epoch end: evaluate blocks are moved after their train step's after_run.",
                "Estimator builds a new graph and session for every evaluation and restores the checkpoint; Keras "
                "evaluates the live model. The event sequence is the same: each evaluation is its own "
                "begin/after_create_session/…/end.",
                "Estimator skips the evaluation of the step-0 checkpoint (model not trained yet); Keras never "
                "evaluates before the first epoch.",
                "TF1 reads every evaluation until OutOfRange (a last before_run without after_run); Keras 2.15 "
                "learns the validation size on the first pass and stops before the failing run afterwards: that "
                "last before_run is dropped from the second evaluation on, on both sides.",
            ),
            evaluation_after_its_train_step,
            without_repeated_validation_exhaustion,
        ),
    )
}
