"""`ProfilerHook`: write a Chrome trace (`timeline-<step>.json`) every N steps.

The traces open in chrome://tracing. The first step of a session is never
traced; the first trace is `save_steps` steps after the session's start step.

Twin: `modern/callbacks/profiler.py` (`TensorBoard(profile_batch=(a, b))` /
`tf.profiler.experimental`).
"""
from __future__ import annotations

import tensorflow as tf


def make_profiler_hook(
    output_dir: str, save_steps: int | None = 100, save_secs: float | None = None, show_memory: bool = False
) -> tf.compat.v1.train.ProfilerHook:
    """Trace one step every `save_steps` steps (or `save_secs` seconds) into `output_dir`.

    Callable outside any graph (as hooks for `Estimator.train` are built).
    """
    # The hook opens a v1 FileWriter in __init__, which refuses eager mode (TF2's
    # default outside a graph); the writer does not depend on the graph it was
    # opened in, so a throwaway one will do.
    with tf.Graph().as_default():
        return tf.compat.v1.train.ProfilerHook(
            save_steps=save_steps, save_secs=save_secs, output_dir=output_dir, show_dataflow=True, show_memory=show_memory
        )
