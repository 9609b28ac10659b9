"""TF1 → TF2 migration toolkit.

`migrate` is the command line and three layers:

* `migrate.core` — the TensorFlow-free shared core `legacy` and `modern`
  import: the SessionRunHook protocol and its event vocabulary, MNIST loading,
  the MNIST model contract, the CLI kit;
* `migrate.report` / `migrate.fix` — the TensorFlow-free scanning side;
* `migrate.parity` — the parity engine for any pair of a TF1 `model_fn` and
  its Keras rebuild (TensorFlow imported only when a check runs).

Importing `migrate` never imports TensorFlow, and nothing in it imports
`legacy` or `modern` (the built-in MNIST pair, `migrate/pairs/mnist.py`, is a
pair file loaded by path).
"""
from __future__ import annotations

__version__ = "0.1.0"
