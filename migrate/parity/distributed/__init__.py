"""`migrate parity --workers N`: the TF1 cluster and its `tf.distribute` twin, side by side on localhost.

TensorFlow-free: it settles the run's pair and params once, as a
single-process run does (`pair_run`: the built-in MNIST pair or ``--pair
FILE``), and starts the role programs as separate processes with
``TF_CONFIG`` on free 127.0.0.1 ports — ``python -m legacy.distributed.pair``
(1 ps + N workers, the pair's `model_fn` under `SyncReplicasOptimizer`) and
``python -m modern.distributed.pair`` (N workers, its `build_model` under
`MultiWorkerMirroredStrategy`) — then compares what they wrote; with
``--replication async`` the asynchronous clusters, with ``--evaluator`` the
Estimator `train_and_evaluate` cluster (chief, worker, ps, evaluator) and
the workers plus a sidecar evaluator.

* `cluster` — ports, processes, timeouts, clean-up, fault injection;
* `sides` — the registry of the sides per cluster kind: which roles, which command;
* `pair_run` — the pair file and params every role program reads;
* `config` — `DistributedConfig`, what a run is asked to do, and its checks;
* `run` — one parity run: the pair run written, both clusters (with restarts), then the verdict;
* `verdict` — both clusters' records in, the single-process `ParityResult` out: the same
  comparators, one pipeline of checks (cluster, N global steps, roles, replay, evaluation);
* `compare` — per-role hook/callback actions as event sequences, steps replayed after a fault;
* `compare_async` — the asynchronous schedule and accuracy band;
* `compare_evaluator` — the evaluator tasks' per-checkpoint metrics;
* `report` — the clusters' and evaluators' sections of the Markdown report (the rest is
  `migrate.parity.render`'s and `migrate.parity.plot`'s, as for a single process);
* `command` — the `--workers` flags of `migrate parity` and their checks.
"""
