"""The TF1 reference pipeline, written the way TF1 users wrote it.

`tf.estimator.Estimator` with a `model_fn` (`legacy.model`), placeholder-fed
`Dataset`s with initializable iterators (`legacy.inputs`), SessionRunHooks
(`legacy.hooks`, one per file), the Estimator entry points
(`legacy.estimator`), a raw `MonitoredTrainingSession` loop
(`legacy.monitored`) and a command line (`python -m legacy`).

Everything here runs on TensorFlow 2.15 through `tf.compat.v1` (the last
release with `tf.estimator`). From `migrate` it imports only the TF-free core
(`migrate.core`), and `migrate` never imports it: the parity engine reaches it
through the MNIST pair file, `migrate/pairs/mnist.py` (`tests/test_layering.py`
checks both directions).

oneDNN kernels are turned off unless the caller chose otherwise: they are not
bit-reproducible, and the parity checks compare losses bit for bit. The setting
only takes effect if this package is imported before TensorFlow.
"""
from __future__ import annotations

import os

os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
