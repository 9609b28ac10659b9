"""The TF2 rebuild of `legacy`: `tf.data` from generators, a Keras model, one callback per hook.

File by file, what replaces what:

* `modern.pipeline` — `Dataset.from_generator` over arrays in memory or on
  disk, replacing placeholders + initializable iterators (and the 2 GB
  GraphDef limit they work around);
* `modern.model` — the legacy `model_fn` network as a Keras model whose
  train step reports the loss of *that* step and the global step;
* `modern.weights` — legacy (name-based TF1) checkpoints in and out;
* `modern.training` and `python -m modern` — train / evaluate / predict;
* `modern.callbacks` — one copyable file per `SessionRunHook`.

Runs unchanged on TF 2.15 / Keras 2.15 and TF 2.21 / Keras 3. It never
imports `legacy` or `tensorflow_estimator`; from `migrate` it imports only the
TF-free core, `migrate.core` (the MNIST model contract, MNIST loading, the
event vocabulary).
"""
from __future__ import annotations
