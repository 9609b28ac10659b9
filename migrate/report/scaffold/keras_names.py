"""The attributes `keras.callbacks.Callback` owns, in Keras 2.15 and Keras 3.

A hook that keeps its own state under one of these names loses it in the
callback: Keras assigns them (`set_params` at the start of every
`fit`/`evaluate`/`predict`, `set_model`, `Callback.__init__`) or defines them
(methods, properties). The scaffold renames such attributes; a test reads
the list back from both Keras versions so it cannot go stale silently.
"""
from __future__ import annotations

_WHY_ASSIGNED = {
    "params": "Keras' set_params() overwrites it at the start of every fit/evaluate/predict",
    "model": "Keras' set_model() overwrites it with the Keras model (a read-only property in Keras 3)",
    "_model": "Keras 3's set_model() stores the Keras model there",
    "validation_data": "keras.callbacks.Callback.__init__ sets it (Keras 2.15)",
    "_chief_worker_only": "keras.callbacks.Callback.__init__ sets it (Keras 2.15: multi-worker behaviour)",
    "_supports_tf_logs": "keras.callbacks.Callback.__init__ sets it (Keras 2.15: which logs the callback gets)",
}
_DEFINED = (
    "set_params", "set_model",
    "on_batch_begin", "on_batch_end", "on_epoch_begin", "on_epoch_end",
    "on_train_begin", "on_train_end", "on_train_batch_begin", "on_train_batch_end",
    "on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end",
    "on_predict_begin", "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end",
    "_implements_train_batch_hooks", "_implements_test_batch_hooks", "_implements_predict_batch_hooks",
    "_keras_api_names", "_keras_api_names_v1", "_api_export_path", "_api_export_symbol_id",
)

CALLBACK_OWNED: dict[str, str] = {
    **{name: "keras.callbacks.Callback defines it" for name in _DEFINED},
    **_WHY_ASSIGNED,
}
"""Attribute name → why a hook attribute of that name cannot stay in a Keras callback."""


def renamed(name: str, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """`params` → `hook_params`, `_model` → `_hook_model`; a trailing `_` until it is free."""
    stripped = name.lstrip("_")
    new = f"{name[: len(name) - len(stripped)]}hook_{stripped}"
    while new in taken:
        new += "_"
    return new
