"""Multi-worker training of a pair's Keras model with `tf.distribute`, one process per role.

The TF2 twin of `legacy/distributed/` (between-graph replication with a
parameter server and `SyncReplicasOptimizer`). A launcher
(`migrate/parity/distributed/`) starts one process per task with
``TF_CONFIG`` set; each trains the pair of the run (the built-in MNIST pair
or the user's, from a `PairRun`) with the callbacks of `modern/callbacks/`
and writes its role's `SideTrace` (losses, which callback acted at which
step, timings; `migrate.core.role_program.RoleRecord`).

* `pair` — one `MultiWorkerMirroredStrategy` worker (``python -m
  modern.distributed.pair``): the pair's `build_model` under the strategy,
  its `train_dataset` split over the workers, the legacy initial values
  mapped as the single-process engine maps them, the loss it reports
  all-reduced;
* `pair_ps` — one `ParameterServerStrategy` process (``python -m
  modern.distributed.pair_ps``): ps and workers serve, the coordinator
  trains with the loop of `ps`;
* `sidecar` — the evaluator task (``python -m modern.distributed.sidecar``),
  the twin of the Estimator's evaluator: evaluates each new checkpoint of the
  chief and writes ``eval/`` summaries, on Keras 2.15 and Keras 3;
* `backup` — Keras' `BackupAndRestore` as each Keras version needs it under
  the strategy (the restart after a killed worker);
* `recorded_callbacks` — the hook twins a trainer runs, and what each did;
* `stop_together` — a callback that makes any ``model.stop_training`` stop
  every worker after the same step.
"""
