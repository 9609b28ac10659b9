"""`StepCounterHook`: write `global_step/sec` to TensorBoard every N steps.

`MonitoredTrainingSession` (hence `Estimator.train`) adds one on the chief
every `log_step_count_steps`; real code adds its own for a different
interval or output directory.

Twin: `modern/callbacks/step_counter.py` (`TensorBoard(write_steps_per_second=True)`
or a timing callback).
"""
from __future__ import annotations

import tensorflow as tf

SUMMARY_TAG = "global_step/sec"


def make_step_counter_hook(output_dir: str, every_n_steps: int = 100) -> tf.compat.v1.train.StepCounterHook:
    """Write steps per second under the tag `global_step/sec` into `output_dir`."""
    return tf.compat.v1.train.StepCounterHook(every_n_steps=every_n_steps, output_dir=output_dir)
