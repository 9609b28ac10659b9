"""`GlobalStepWaiterHook`: hold a worker back until the global step reaches N.

In between-graph replicated (parameter-server) training, non-chief workers
used it for a staggered start: `before_run` sleeps, polling the shared global
step, until it reaches `wait_until_step`. On one machine it returns at once
once the step is reached (e.g. when resuming past it).

Twin: `modern/callbacks/global_step_waiter.py` — no callback: `tf.distribute`
strategies start replicas together or schedule them themselves.
"""
from __future__ import annotations

import tensorflow as tf


def make_global_step_waiter_hook(wait_until_step: int) -> tf.compat.v1.train.GlobalStepWaiterHook:
    """Delay this worker's steps until the global step is at least `wait_until_step`."""
    return tf.compat.v1.train.GlobalStepWaiterHook(wait_until_step)
