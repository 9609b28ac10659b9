"""The serving stage's comparisons (numpy in, messages out): every difference named by signature and key."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from migrate.parity.serving.check import compare_output, compare_parses, compare_surfaces, why_values_differ
from migrate.parity.serving.surface import ParsedFeature, SignatureInfo, Surface, TensorInfo

CLASSIFY, PREDICT = "tensorflow/serving/classify", "tensorflow/serving/predict"
EXAMPLES = {"inputs": TensorInfo("string", (None,))}


def surface(**signatures: SignatureInfo) -> Surface:
    return Surface(Path("export"), dict(signatures))


def classify(scores=(None, 3), method=CLASSIFY, **outputs) -> SignatureInfo:
    return SignatureInfo("serving_default", method, dict(EXAMPLES),
                         {"classes": TensorInfo("string", (None, 3)), "scores": TensorInfo("float32", scores), **outputs})


def test_the_same_surface_has_nothing_to_say():
    assert compare_surfaces(surface(serving_default=classify()), surface(serving_default=classify())) == []


@pytest.mark.parametrize(
    "keras, words",
    [
        pytest.param(surface(serving_default=classify(scores=(None, 10))),
                     "`serving_default` output `scores`: TF1 float32 (None, 3), Keras float32 (None, 10)",
                     id="an output of another shape"),
        pytest.param(surface(serving_default=classify(method=PREDICT)),
                     "`serving_default` method name: TF1 tensorflow/serving/classify, Keras tensorflow/serving/predict",
                     id="the predict method TF2 writes by default"),
        pytest.param(surface(), "`serving_default` is missing on the Keras side (classify)", id="a signature dropped"),
        pytest.param(surface(serving_default=SignatureInfo(
            "serving_default", CLASSIFY, {"examples": TensorInfo("string", (None,))}, classify().outputs)),
            "`serving_default` input `inputs` is missing on the Keras side (Keras has `examples`)",
            id="an input renamed"),
    ],
)
def test_a_surface_difference_is_named_by_signature_and_key(keras, words):
    assert words in compare_surfaces(surface(serving_default=classify()), keras)


def test_an_extra_keras_output_is_no_failure_but_an_extra_input_is():
    extra_output = classify(extra=TensorInfo("float32", (None,)))
    assert compare_surfaces(surface(serving_default=classify()), surface(serving_default=extra_output)) == []
    extra_input = SignatureInfo("serving_default", CLASSIFY, {**EXAMPLES, "mask": TensorInfo("bool", (None,))},
                                classify().outputs)
    assert compare_surfaces(surface(serving_default=classify()), surface(serving_default=extra_input)) == [
        "`serving_default` input `mask` is only on the Keras side (TF1 clients do not send it)"]


def test_a_feature_parsed_otherwise_is_named():
    legacy, modern = surface(), surface()
    legacy.parsed_features = {"island": ParsedFeature("island", "sparse", "string"),
                              "age": ParsedFeature("age", "dense", "float32", (1,))}
    modern.parsed_features = {"age": ParsedFeature("age", "dense", "int64", (1,))}
    assert compare_parses(legacy, modern) == [
        "feature `age`: TF1 parses float32 [1] (dense), Keras int64 [1] (dense)",
        "feature `island`: TF1 parses it from tf.Examples (string (sparse)), Keras does not",
    ]


SCORES = np.array([[0.25, 0.75], [0.5, 0.5]], np.float32)


def test_answers_bit_for_bit_or_within_the_tolerance():
    assert compare_output("`s` output `scores`", SCORES, SCORES.copy(), 0.0) == (None, 0.0)
    nudged = SCORES.copy()
    nudged[0, 1] = np.nextafter(nudged[0, 1], np.float32(1))  # one ulp: 2**-24
    message, worst = compare_output("`s` output `scores`", SCORES, nudged, 0.0)
    assert message.startswith("`s` output `scores`: max |Δ| 5.96046e-08 in 1 of 2 requests (allowed 0)")
    assert compare_output("`s` output `scores`", SCORES, nudged, 1e-6) == (None, worst)


def test_strings_integers_and_nans_compare_exactly():
    classes = np.array([[b"7"], [b"1"]], object)
    message, _ = compare_output("`predict` output `classes`", classes, np.array([[b"7"], [b"2"]], object), 1.0)
    assert message == "`predict` output `classes`: 1 of 2 requests differ (request 1: TF1 [b'1'], Keras [b'2'])"
    with_nan = SCORES.copy()
    with_nan[0, 0] = np.nan
    assert compare_output("`s` output `scores`", with_nan, with_nan.copy(), 0.0) == (None, 0.0)
    assert "NaN on one side only in 1 requests" in compare_output("`s` output `scores`", with_nan, SCORES, 0.0)[0]


def test_statistical_mode_compares_dtypes_and_shapes_not_values():
    assert compare_output("`s` output `scores`", SCORES, SCORES[::-1].copy(), 0.0, values=False) == (None, 0.0)
    message, _ = compare_output("`s` output `scores`", SCORES, SCORES.astype(np.float64), 0.0, values=False)
    assert message == "`s` output `scores`: TF1 answers float32 (2, 2), Keras float64 (2, 2)"


def test_answers_apart_by_rounding_are_told_from_another_computation():
    """Measured: examples/canned_dnn, TF 2.15 Estimator export vs Keras 3 export after 200 drifting steps."""
    assert why_values_differ([1.8e-7, 3.2e-7], 2.38e-6).endswith(
        "another TensorFlow or Keras version; allow it with --serving-tolerance 5e-06")
    assert "the exported models compute something else" in why_values_differ([3.2e-7, 0.02], 0.4)
