"""`StopAtStepHook`: stop after `num_steps` more steps or at global step `last_step`.

`num_steps` is relative to the global step read at session creation
(`after_create_session`), so a resumed run trains `num_steps` more; `last_step`
is absolute. `Estimator.train(steps=..., max_steps=...)` appends exactly this
hook after the user's hooks.

Twin: `modern/callbacks/stop_at_step.py` (counts `optimizer.iterations`).
"""
from __future__ import annotations

import tensorflow as tf


def make_stop_at_step_hook(num_steps: int | None = None, last_step: int | None = None) -> tf.compat.v1.train.StopAtStepHook:
    """Exactly one of `num_steps` (relative) or `last_step` (absolute global step)."""
    return tf.compat.v1.train.StopAtStepHook(num_steps=num_steps, last_step=last_step)
