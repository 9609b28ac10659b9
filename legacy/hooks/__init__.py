"""SessionRunHooks of the legacy pipeline, one per file.

Own hooks: `IteratorInitializerHook`, `EventRecorderHook`,
`StopOnConditionHook` (on `StepTrackingHook`). The stock TF1 hooks are used
as real code uses them, through one small factory per file; each file names
its Keras twin in `modern/callbacks/` (same stem).
"""
from __future__ import annotations

from legacy.hooks.checkpoint_saver import CheckpointLogListener, make_checkpoint_saver_hook
from legacy.hooks.early_stopping import make_early_stopping_hook
from legacy.hooks.event_recorder import EventRecorderHook, load_events
from legacy.hooks.feed_fn import feed_input_fn, make_feed_fn_hook
from legacy.hooks.final_ops import make_final_ops_hook
from legacy.hooks.global_step_waiter import make_global_step_waiter_hook
from legacy.hooks.in_memory_evaluator import make_in_memory_evaluator_hook
from legacy.hooks.iterator_initializer import IteratorInitializerHook
from legacy.hooks.logging_tensor import make_logging_tensor_hook
from legacy.hooks.names import GLOBAL_STEP, LOSS, value_of
from legacy.hooks.nan_tensor import make_nan_tensor_hook
from legacy.hooks.profiler import make_profiler_hook
from legacy.hooks.step_counter import make_step_counter_hook
from legacy.hooks.step_tracking import StepTrackingHook
from legacy.hooks.stop_at_step import make_stop_at_step_hook
from legacy.hooks.stop_on_condition import StopOnConditionHook
from legacy.hooks.summary_saver import make_summary_saver_hook

__all__ = [
    "GLOBAL_STEP",
    "LOSS",
    "CheckpointLogListener",
    "EventRecorderHook",
    "IteratorInitializerHook",
    "StepTrackingHook",
    "StopOnConditionHook",
    "feed_input_fn",
    "load_events",
    "make_checkpoint_saver_hook",
    "make_early_stopping_hook",
    "make_feed_fn_hook",
    "make_final_ops_hook",
    "make_global_step_waiter_hook",
    "make_in_memory_evaluator_hook",
    "make_logging_tensor_hook",
    "make_nan_tensor_hook",
    "make_profiler_hook",
    "make_step_counter_hook",
    "make_stop_at_step_hook",
    "make_summary_saver_hook",
    "value_of",
]
