"""Between-graph replicated TF1 training of a pair's `model_fn`, one process per role.

The TF1 cluster recipe: every process starts a `tf.distribute.Server` for its
task of the ``TF_CONFIG`` cluster (1 ps + N workers, worker 0 the chief);
variables live on the ps (`replica_device_setter`); each worker builds the
graph and trains in a `MonitoredTrainingSession(master=server.target,
is_chief=...)`, synchronously through `SyncReplicasOptimizer` and its hook.
The chief-only hooks (`CheckpointSaverHook`, `SummarySaverHook`,
`StepCounterHook`) are the ones `MonitoredTrainingSession` would add on the
chief; `LoggingTensorHook` runs on every worker, as the Estimator's did.

* `pair` (``python -m legacy.distributed.pair``): that recipe on the pair of
  a run (the built-in MNIST pair or the user's): its `model_fn`, whose TF1
  optimizer is wrapped in `SyncReplicasOptimizer`, on each worker's slice of
  its `train_input_fn` — or, with ``--replication async``, every worker
  applying its own gradients;
* `estimator` (``python -m legacy.distributed.estimator``): the other TF1
  deployment, `tf.estimator.train_and_evaluate` with ``TF_CONFIG`` roles
  chief, worker, ps and evaluator, synchronous the same way.

Twin: `modern/distributed/` (`MultiWorkerMirroredStrategy` and Keras `fit`,
`ParameterServerStrategy` with a coordinator). The launcher is
`migrate/parity/distributed/`.
"""
