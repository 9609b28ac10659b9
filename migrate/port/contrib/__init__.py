"""`tf.contrib` for a TF1 model_fn on TensorFlow 2: each name it uses runs as its TF1-core twin.

TensorFlow 2 has no `tf.contrib`, so a model_fn written for TF 1.x that calls
`tf.contrib.layers.fully_connected` cannot even be traced. Most of what real
model_fns take from contrib is, in TF 1.15 itself, a thin layer over TF1-core
ops: `install` (run by `migrate port` before it imports the user's code, and by
the pair.py it writes) puts a `tf.contrib` namespace on `tensorflow` and
`tensorflow.compat.v1`, and lets ``import tensorflow.contrib.…`` work, whose
names are those twins — TF 1.15's code rebuilt on core ops with the same
variable names, scopes, initialisers, defaults and math. One module of this
package per contrib family declares its twins (`TWINS`); `registry` collects
them. Every use is recorded with the user's file:line (`recorded_uses`), which
PORT.md lists. A contrib name without an exact twin raises `AttributeError` /
`ImportError` naming it, which `migrate.port.removed_api` turns into the
refusal.
"""
from __future__ import annotations

from migrate.port.contrib.namespace import ContribUse, forget_uses, install, recorded_uses, use_notes

__all__ = ["ContribUse", "forget_uses", "install", "recorded_uses", "use_notes"]
