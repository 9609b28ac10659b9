"""`SyncReplicasOptimizer.make_session_run_hook` → no callback: `MultiWorkerMirroredStrategy` synchronises the workers.

`tf.compat.v1.train.SyncReplicasOptimizer(opt, replicas_to_aggregate,
total_num_replicas)` aggregated the workers' gradients on the parameter
servers and applied them once per step; its hook
(`opt.make_session_run_hook(is_chief)`) started the chief's queue runner,
filled the token queue and initialised the local step of each worker. With
`tf.distribute.MultiWorkerMirroredStrategy` every worker computes gradients on
its shard, an all-reduce sums them, and every worker applies the same update:
the synchronisation is in the strategy, so neither the optimizer wrapper nor
its hook has a replacement to write. `modern/distributed/` is the worked
twin of `legacy/distributed/` (which uses this hook).

Method mapping: `begin`/`after_create_session` (queue runner, tokens,
local step init) → none; build and compile the model under
``strategy.scope()``, then call `fit`.

Differences: no parameter servers; every worker contributes to every step
(no ``replicas_to_aggregate < total_num_replicas`` backup workers, no
dropping of stale gradients); the loss Keras reports is per worker unless the
train step all-reduces it.
"""
from __future__ import annotations

TF1_EQUIVALENT = {
    "hooks": ["SyncReplicasOptimizer.make_session_run_hook"],
    "callback": None,
    "methods": {
        "after_create_session": "none: MultiWorkerMirroredStrategy all-reduces gradients inside the train step",
    },
    "differences": [
        "no callback: build the model under MultiWorkerMirroredStrategy().scope() (see modern/distributed/)",
        "no backup workers (replicas_to_aggregate < total_num_replicas); late gradients are never dropped",
    ],
}
