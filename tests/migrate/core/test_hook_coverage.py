"""Every public TF1 hook has a row in the hook map: a callback, or a file saying why none is needed and what to do.

The hooks are enumerated from the installed TF 2.15 and tensorflow-estimator
(so TF 2.15 only): `SessionRunHook` subclasses and `CheckpointSaverListener`
exported by the public modules below, hook factories (public functions named
``*_hook``), and classes that make a hook (``make_session_run_hook``, i.e.
`SyncReplicasOptimizer`). `SessionRunHook` itself is the protocol, mapped as a
whole by `migrate.core.protocol`; `migrate scaffold` writes a callback per
subclass of it.
"""
from __future__ import annotations

import inspect

import pytest

from migrate.core.hook_map import load_hook_map

pytestmark = pytest.mark.estimator

PUBLIC_MODULES = (
    "compat.v1.train",
    "estimator",
    "estimator.experimental",
    "compat.v1.estimator",
    "compat.v1.estimator.experimental",
    "compat.v1.estimator.tpu",
    "data.experimental",
    "compat.v1.data.experimental",
)


def public_hooks() -> dict[str, str]:
    """Hook name (as the map spells it) → where it was found."""
    import tensorflow as tf

    base, listener = tf.compat.v1.train.SessionRunHook, tf.compat.v1.train.CheckpointSaverListener
    found: dict[str, str] = {}
    for path in PUBLIC_MODULES:
        module = tf
        for part in path.split("."):
            module = getattr(module, part)
        for name in dir(module):
            if name.startswith("_"):
                continue
            value = getattr(module, name)
            if inspect.isclass(value) and value is not base and issubclass(value, (base, listener)):
                found.setdefault(name, f"tf.{path}")
            elif inspect.isclass(value) and hasattr(value, "make_session_run_hook"):
                found.setdefault(f"{name}.make_session_run_hook", f"tf.{path}")
            elif inspect.isfunction(value) and name.endswith("_hook"):
                found.setdefault(name, f"tf.{path}")
    return found


def test_the_enumeration_finds_the_known_hooks():
    hooks = public_hooks()
    assert {
        "CheckpointSaverHook", "StopAtStepHook", "InMemoryEvaluatorHook", "CheckpointInputPipelineHook",
        "SyncReplicasOptimizer.make_session_run_hook", "make_stop_at_checkpoint_step_hook", "stop_if_no_decrease_hook",
    } <= set(hooks)
    assert "SessionRunHook" not in hooks


def test_every_public_hook_has_a_row():
    rows = {entry.hook: entry for entry in load_hook_map()}
    missing = {name: where for name, where in public_hooks().items() if name not in rows}
    assert not missing, f"public hooks without a row in modern/callbacks/*.py TF1_EQUIVALENT: {missing}"
    for name in public_hooks():
        entry = rows[name]
        assert entry.differences, f"{name}: the row must say what differs (or why there is no callback)"
        if entry.callback is None:
            assert entry.differences[0].startswith("no callback"), f"{name}: a no-callback row starts with 'no callback: ...'"
