"""`GlobalStepWaiterHook` → no callback: use a `tf.distribute` strategy.

`tf.compat.v1.train.GlobalStepWaiterHook(wait_until_step)` (twin: `legacy/hooks/global_step_waiter.py`) made a
between-graph replicated worker sleep in `before_run` until the chief's
global step reached `wait_until_step` (a staggered start for asynchronous
parameter-server training). TF2 has no global-step tensor shared by polling:
synchronous strategies (`MirroredStrategy`, `MultiWorkerMirroredStrategy`)
start every replica together, and `ParameterServerStrategy` with its
`ClusterCoordinator` schedules steps on workers itself.

Method mapping: `begin`/`before_run` (poll the global step and sleep) → none;
create the model under ``strategy.scope()`` and call `fit` as usual.

Differences: there is nothing to wait for; a deliberate warm-up delay per
worker, if still wanted, is a `time.sleep` before `fit`, not a callback.
"""
from __future__ import annotations

TF1_EQUIVALENT = {
    "hooks": ["GlobalStepWaiterHook"],
    "callback": None,
    "methods": {"before_run": "none: tf.distribute strategies coordinate workers"},
    "differences": [
        "no callback: synchronous strategies start replicas together; ParameterServerStrategy schedules work",
    ],
}
