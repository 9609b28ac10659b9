"""The staged checks on plain numpy values: what each stage says when something differs."""
from __future__ import annotations

import numpy as np
import pytest

from migrate.core.mapping import Match, Weight
from migrate.parity.stages import (
    batch_fingerprint,
    batch_problem,
    batch_structure,
    check_forward,
    check_one_step,
    check_variables,
    locate_forward_difference,
)

MATCHES = [
    Match(Weight("hidden/kernel", (2, 3)), Weight("hidden/kernel", (2, 3)), "name"),
    Match(Weight("hidden/bias", (3,)), Weight("hidden/bias", (3,)), "name"),
]
AFTER = {"hidden/kernel": np.ones((2, 3), np.float32), "hidden/bias": np.zeros(3, np.float32)}


def test_constant_initialisers_that_disagree_fail_the_variables_stage():
    stage = check_variables(MATCHES, {"hidden/kernel": None, "hidden/bias": 0.0}, {"hidden/kernel": None, "hidden/bias": 1.0})
    assert stage.status == "failed"
    assert "hidden/bias is initialised to the constant 0 in TF1 but hidden/bias to 1 in Keras" in stage.message


def test_dtypes_that_differ_fail_the_variables_stage():
    matches = [Match(Weight("w", (2,), "float32"), Weight("w", (2,), "float64"), "name")]
    assert "w is float32 in TF1 but w is float64 in Keras" in check_variables(matches, {}, {}).message


def test_forward_picks_the_prediction_with_the_keras_shape():
    legacy = {"classes": np.array([1, 0]), "logits": np.array([[0.5, 1.0], [2.0, 0.0]], np.float32)}
    stage = check_forward(legacy, np.array([[0.5, 1.0], [2.0, 0.0]], np.float32), None, 0.0)
    assert stage.ok and stage.details["compared"] == "logits"
    broken = check_forward(legacy, np.array([[0.5, 1.0], [2.0, 0.25]], np.float32), None, 0.0)
    assert broken.status == "failed" and "max |Δ| logits: 0.25" in broken.message


def test_forward_without_a_matching_prediction_asks_for_prediction_key():
    with pytest.raises(KeyError, match="no prediction of the model_fn has the Keras output's shape"):
        check_forward({"classes": np.array([1, 0])}, np.zeros((2, 10)), None, 0.0)


def test_one_step_names_the_first_variable_that_differs():
    modern = {"hidden/kernel": AFTER["hidden/kernel"] + 1e-3, "hidden/bias": AFTER["hidden/bias"] + 1e-3}
    stage = check_one_step(MATCHES, 2.0, 2.0, AFTER, modern, 0.0)
    assert stage.status == "failed" and stage.details["first_variable"] == "hidden/kernel"
    assert "first variable that differs after the update: hidden/kernel (Keras hidden/kernel)" in stage.message
    assert "also hidden/bias" in stage.message


def test_one_step_names_a_different_loss():
    stage = check_one_step(MATCHES, 2.0, 256.0, AFTER, AFTER, 0.0)
    assert stage.status == "failed" and "the loss of step 1 differs: legacy 2.0 vs modern 256.0" in stage.message


def test_one_step_is_not_checked_in_statistical_mode():
    assert check_one_step(MATCHES, 2.0, 3.0, AFTER, AFTER, float("inf")).status == "not checked"


def test_batches_of_another_size_or_structure():
    legacy = (np.zeros((4, 3), np.float32), np.zeros(4, np.int64))
    assert batch_problem(batch_structure(legacy), legacy, batch_fingerprint(legacy)) is None
    smaller = (np.zeros((2, 3), np.float32), np.zeros(2, np.int64))
    assert "differ in batch size or element structure" in batch_problem(
        batch_structure(legacy), smaller, batch_fingerprint(legacy))
    as_dict = ({"x": np.zeros((4, 3), np.float32)}, np.zeros(4, np.int64))
    assert "gives features (4, 3), labels (4,), train_dataset gives features/x (4, 3)" in batch_problem(batch_structure(legacy), as_dict, batch_fingerprint(legacy))


def test_batches_with_other_values_and_integer_widths():
    legacy = (np.arange(6, dtype=np.float32).reshape(2, 3), np.array([1, 2], np.int32))
    same_values = (legacy[0].copy(), np.array([1, 2], np.int64))
    assert batch_fingerprint(legacy) == batch_fingerprint(same_values)
    shuffled = (legacy[0][::-1].copy(), legacy[1])
    assert "hold different values" in batch_problem(batch_structure(legacy), shuffled, batch_fingerprint(legacy))
    assert batch_problem(batch_structure(legacy), shuffled, batch_fingerprint(legacy), values=False) is None


LAYERS = [
    Match(Weight("hidden/kernel", (3, 4)), Weight("hidden/kernel", (3, 4)), "name"),
    Match(Weight("hidden/bias", (4,)), Weight("hidden/bias", (4,)), "name"),
    Match(Weight("logits/kernel", (4, 1)), Weight("dense_1/kernel", (4, 1)), "creation order"),
]
FEATURES = np.arange(6, dtype=np.float32).reshape(2, 3)
HIDDEN = np.ones((2, 4), np.float32)


@pytest.mark.parametrize(
    ("modern", "words", "first"),
    [
        pytest.param({"hidden/kernel": FEATURES[:, ::-1], "dense_1/kernel": HIDDEN},
                     "the input of the first layer (the one with hidden/kernel) already differs", "hidden/kernel",
                     id="features in another order: the first layer's input"),
        pytest.param({"hidden/kernel": FEATURES, "dense_1/kernel": HIDDEN * 2},
                     "the layer with hidden/kernel gets the same input on both sides, the layer with logits/kernel does not",
                     "logits/kernel", id="another activation: between two layers"),
        pytest.param({"hidden/kernel": FEATURES, "dense_1/kernel": HIDDEN},
                     "every layer with a kernel gets the same input (2 checked): the difference is in the last one",
                     None, id="an output transformation: after the last layer"),
    ],
)
def test_a_failed_forward_pass_is_located_by_the_layers_inputs(modern, words, first):
    message, details = locate_forward_difference(LAYERS, {"hidden/kernel": FEATURES, "logits/kernel": HIDDEN}, modern, 0.0)
    assert words in message and details["first_input_differs"] == first


def test_no_comparable_layer_input_locates_nothing():
    assert locate_forward_difference(LAYERS, {"hidden/kernel": FEATURES}, {}, 0.0) is None
    assert locate_forward_difference(LAYERS, {"hidden/kernel": FEATURES}, {"hidden/kernel": FEATURES.T}, 0.0) is None


def test_a_rounding_level_forward_difference_says_so_and_names_the_flag():
    """Keras 3 on TF 2.21 against a TF 2.15 trace of examples/ctr_tabular: the last Dense rounds 1 ulp apart."""
    logits = np.array([[3.0], [-9.5]], np.float32)
    stage = check_forward({"logits": logits}, logits + np.float32(2.86e-6), None, 0.0)
    assert stage.status == "failed" and "a rounding-level difference" in stage.message
    assert "--forward-tolerance 6e-06" in stage.message
    assert "a layer computes something else" in check_forward({"logits": logits}, logits + 0.5, None, 0.0).message


def _ulps_away(values: np.ndarray, ulps: int) -> np.ndarray:
    """`values` with its largest-magnitude element moved `ulps` steps away from zero."""
    moved = values.astype(np.float32).copy()
    index = np.unravel_index(np.argmax(np.abs(moved)), moved.shape)
    for _ in range(ulps):
        moved[index] = np.nextafter(moved[index], np.float32(np.copysign(np.inf, moved[index])))
    return moved


def test_a_one_step_difference_of_a_few_ulp_is_called_rounding_and_the_option_named():
    after = {"hidden/kernel": np.array([[0.5, -2.0, 1.0], [0.25, 0.0, 1.5]], np.float32), "hidden/bias": np.ones(3, np.float32)}
    modern = {**after, "hidden/kernel": _ulps_away(after["hidden/kernel"], 2)}
    stage = check_one_step(MATCHES, 2.0, 2.0, after, modern, 0.0)
    assert stage.status == "failed" and stage.details["rounding_level"]
    assert stage.message.startswith("one step: differs at rounding level (≤ 2 ulp: hidden/kernel)")
    assert "--schedule rounding" in stage.message


def test_a_pass_within_a_tolerance_is_worded_so_never_agree():
    after = {"hidden/kernel": np.array([[0.5, -2.0, 1.0], [0.25, 0.0, 1.5]], np.float32), "hidden/bias": np.ones(3, np.float32)}
    modern = {**after, "hidden/kernel": _ulps_away(after["hidden/kernel"], 2)}
    stage = check_one_step(MATCHES, 2.0, 2.0, after, modern, 1e-5)
    assert stage.ok and "are within tolerance (relative 1e-05; ≤ 2 ulp)" in stage.message and "agree" not in stage.message
    assert "agree" in check_one_step(MATCHES, 2.0, 2.0, after, after, 1e-5).message


def test_noise_on_a_variable_far_below_the_models_scale_is_rounding():
    """A bias before batch norm: its true gradient is zero, both sides keep float32 noise ~1e-9 that parts by 100%."""
    after = {"hidden/kernel": np.array([[0.5, -2.0, 1.0], [0.25, 0.0, 1.5]], np.float32),
             "hidden/bias": np.array([1e-9, -2e-9, 0.0], np.float32)}
    modern = {**after, "hidden/bias": np.array([-1e-9, 1e-9, 5e-10], np.float32)}
    exact = check_one_step(MATCHES, 2.0, 2.0, after, modern, 0.0)
    assert exact.status == "failed" and exact.details["rounding_level"]
    assert check_one_step(MATCHES, 2.0, 2.0, after, modern, 1e-5).ok
