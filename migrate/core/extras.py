"""Which optional install (`pip install 'tf1-migrate[EXTRA]'`) provides a module a command needs.

`migrate report`, `fix` and `scaffold` run on the base install; `parity`,
`fetch-mnist` and the `legacy`/`modern` programs need TensorFlow and friends,
which come with an extra. A command that imports one of them on a base install
is a usage error whose message names the extra, not a crash.
"""
from __future__ import annotations

TF_EXTRAS = (
    "pip install 'tf1-migrate[tf215]' (TF 2.15 with tf.estimator: both sides of a parity run) "
    "or 'tf1-migrate[tf221]' (TF 2.21 / Keras 3: the modern side)"
)

EXTRA_FOR_MODULE = {
    "tensorflow": TF_EXTRAS,
    "keras": TF_EXTRAS,
    "numpy": TF_EXTRAS,
    "tensorboard": TF_EXTRAS,
    "tensorflow_estimator": "pip install 'tf1-migrate[tf215]' (tf.estimator ships with TF 2.15 and earlier only)",
    "tf_keras": "pip install 'tf1-migrate[tf-keras]' --no-deps (Keras 2 on TF 2.21, TF_USE_LEGACY_KERAS=1)",
}


def missing_dependency_message(error: ImportError) -> str | None:
    """What to install for `error`, when it is a missing package an extra provides; else None."""
    if not isinstance(error, ModuleNotFoundError) or not error.name:
        return None
    top = error.name.partition(".")[0]
    how = EXTRA_FOR_MODULE.get(top)
    if how is None:
        return None
    return f"this command needs `{top}`, which is not installed: {how}"
