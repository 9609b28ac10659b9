"""Asynchronous parameter-server training with `tf.distribute`: the TF2 twin of ``legacy.distributed.pair --replication async``.

`loop` is the training loop on the coordinator of a `ParameterServerStrategy`
cluster (``python -m modern.distributed.pair_ps``): a `ClusterCoordinator`
schedules one `tf.function` step per batch on whichever worker is free,
joins at every callback boundary and drives the callbacks of
`modern/callbacks/` through their public methods.

Why not Keras `fit`: Keras 2.15's `fit` under `ParameterServerStrategy`
refuses batch-level callbacks ("Batch-level `Callback`s are not supported
with `ParameterServerStrategy`") — every hook twin is one — and Keras 3's
`fit` drives no coordinator ("To use this dataset, you need to pass this
dataset to ClusterCoordinator.create_per_worker_dataset"); the loop here
runs on both.
"""
