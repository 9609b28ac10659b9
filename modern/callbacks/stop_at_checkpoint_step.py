"""`make_stop_at_checkpoint_step_hook` → no callback: a sidecar evaluator stops at the last checkpoint, workers stop together.

`tf.estimator.experimental.make_stop_at_checkpoint_step_hook(estimator,
last_step, wait_after_file_check_secs=30)` returned a `_StopAtCheckpointStepHook`
for non-chief workers of asynchronous training: once a worker's own global
step passed `last_step` it read the latest checkpoint's step and requested a
stop only when the chief had written a checkpoint at `last_step` (sleeping
between checks), so no worker quit before the final checkpoint existed.

What to do instead: with `MultiWorkerMirroredStrategy` all workers run the
same steps in lockstep and stop together (`StopAtStep` or `fit`'s step
count), so there is nothing to wait for. A separate evaluator job loops over
``tf.train.checkpoints_iterator(model_dir, timeout=...)``, restores each
checkpoint, evaluates, and stops after the one at the last step
(`SidecarEvaluator(model, data, checkpoint_dir, max_evaluations=...)` in
Keras 2 / tf-keras does this loop; Keras 3 has none, and
`modern/distributed/sidecar.py` is the loop for both, the evaluator task of
`migrate parity --workers 2 --evaluator`).

Method mapping: `after_run` (read the checkpoint step, sleep, request stop)
→ none.

Differences: no polling inside training; the evaluator's stop condition is
the checkpoint step it has just evaluated.
"""
from __future__ import annotations

TF1_EQUIVALENT = {
    "hooks": ["make_stop_at_checkpoint_step_hook"],
    "callback": None,
    "methods": {"after_run": "none: synchronous workers stop together; an evaluator loops over checkpoints_iterator"},
    "differences": [
        "no callback: MultiWorkerMirroredStrategy workers run the same steps and stop together",
        "a sidecar evaluator stops after evaluating the checkpoint at the last step (tf.train.checkpoints_iterator)",
    ],
}
