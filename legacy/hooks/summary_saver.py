"""`SummarySaverHook`: write the graph's `tf.compat.v1.summary` ops every N steps.

The summary ops exist only inside the graph, so TF1 code builds this hook
inside `model_fn` and returns it in `EstimatorSpec(training_hooks=[...])`::

    tf.compat.v1.summary.scalar("train_accuracy", accuracy)
    hook = make_summary_saver_hook(output_dir, save_steps=10)
    return spec._replace(training_hooks=[hook])

`MonitoredTrainingSession` / `Estimator.train` already save the merged
summaries every `save_summary_steps` into the model dir.

Twin: `modern/callbacks/summary_saver.py` (`TensorBoard(update_freq=N)` + `tf.summary`).
"""
from __future__ import annotations

import tensorflow as tf


def make_summary_saver_hook(
    output_dir: str, save_steps: int = 100, summary_op: tf.Tensor | None = None
) -> tf.compat.v1.train.SummarySaverHook:
    """Save `summary_op` (default: every summary in the current graph, merged) every `save_steps` steps.

    Call it while the model's graph is the default graph (inside `model_fn`).
    """
    if summary_op is None:
        summary_op = tf.compat.v1.summary.merge_all()
    if summary_op is None:
        raise ValueError(
            "make_summary_saver_hook: the current graph has no summaries; call it inside model_fn after "
            "creating tf.compat.v1.summary ops, or pass summary_op=."
        )
    return tf.compat.v1.train.SummarySaverHook(save_steps=save_steps, output_dir=output_dir, summary_op=summary_op)
