"""`StopOnConditionHook`: request a stop when a condition on (step, loss) holds.

The hook itself records nothing; put an `EventRecorderHook` after it to see
the request. Every hook's `after_run` still runs for the step in which the
stop is requested, and the loop ends after that step.

Twin: `modern/callbacks/stop_on_condition.py`.
"""
from __future__ import annotations

from collections.abc import Callable

import tensorflow as tf

from legacy.hooks.names import LOSS
from legacy.hooks.step_tracking import StepTrackingHook

StopCondition = Callable[[int, "float | None"], bool]


class StopOnConditionHook(StepTrackingHook):
    """Calls `should_stop(step, loss)` after each run and requests a stop when it returns True.

    Args:
        should_stop: gets the completed step and its loss (None outside training).
        phase: "train", "evaluate" or "predict" (the step convention, see
            `migrate.core.protocol`).
        loss_name: the loss tensor fetched in training.

    Example::

        StopOnConditionHook(lambda step, loss: loss < 0.05 or step >= 1000)
    """

    def __init__(self, should_stop: StopCondition, phase: str = "train", loss_name: str = LOSS) -> None:
        if not callable(should_stop):
            raise TypeError(f"StopOnConditionHook: should_stop must be callable, got {should_stop!r}.")
        super().__init__(phase, loss_name)
        self.should_stop = should_stop
        self.stopped_at: int | None = None

    def after_run(
        self, run_context: tf.compat.v1.train.SessionRunContext, run_values: tf.compat.v1.train.SessionRunValues
    ) -> None:
        """Called after each successful run: evaluate the condition on that step."""
        super().after_run(run_context, run_values)
        if self.should_stop(self.step, self.loss):
            self.stopped_at = self.step
            run_context.request_stop()
