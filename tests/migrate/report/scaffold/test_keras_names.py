"""`CALLBACK_OWNED` is read back from the installed Keras (2.15 in one suite, Keras 3 in the other)."""
from __future__ import annotations

import pytest

from migrate.report.scaffold.keras_names import CALLBACK_OWNED, renamed


@pytest.mark.tensorflow
def test_every_attribute_keras_callback_sets_or_defines_is_listed() -> None:
    import keras

    callback = keras.callbacks.Callback()
    callback.set_params({"epochs": 1, "steps": 1, "verbose": 0})
    callback.set_model(keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)]))
    defined = {name for klass in type(callback).__mro__ if klass is not object for name in vars(klass) if not name.startswith("__")}
    owned = set(vars(callback)) | defined

    assert owned - set(CALLBACK_OWNED) == set(), f"Keras {keras.__version__} owns names the scaffold would not rename"


@pytest.mark.parametrize(
    ("name", "taken", "expected"),
    [
        pytest.param("params", set(), "hook_params", id="public name gets a hook_ prefix"),
        pytest.param("_model", set(), "_hook_model", id="leading underscores stay in front"),
        pytest.param("model", {"hook_model"}, "hook_model_", id="a name the hook already uses is avoided"),
    ],
)
def test_renamed(name: str, taken: set[str], expected: str) -> None:
    assert renamed(name, taken) == expected
