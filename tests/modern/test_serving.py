"""`modern.serving`: a Keras model gets the canned heads' serving surface, method names included (Keras 2.15 and 3).

A tiny functional model (untrained: the surface and the ops matter, not the
weights) is saved once, with the classification head's signatures and the
regression head's (under other keys); the SavedModel is read back as a server does.
"""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from tensorflow import keras

from modern.serving import (
    CLASSIFY,
    PREDICT,
    REGRESS,
    Signature,
    classification_head_signatures,
    examples_signature,
    regression_head_signatures,
    save,
)

FEATURE_SPEC = {"x": tf.io.FixedLenFeature([4], tf.float32)}
ROWS = np.random.default_rng(3).normal(size=(5, 4)).astype(np.float32)


def tiny_model(outputs: int) -> keras.Model:
    keras.utils.set_random_seed(1)
    inputs = keras.Input((4,), name="x")
    return keras.Model(inputs, keras.layers.Dense(outputs, name="out")(keras.layers.Dense(8, "relu")(inputs)))


def graph_outputs(model: keras.Model, rows: np.ndarray) -> tf.Tensor:
    """The model's answer computed in a graph, as the SavedModel does (eager kernels can round differently)."""
    return tf.function(lambda inputs: model(inputs, training=False))(rows)


def serialized(rows: np.ndarray) -> tf.Tensor:
    return tf.constant([
        tf.train.Example(features=tf.train.Features(feature={
            "x": tf.train.Feature(float_list=tf.train.FloatList(value=row.tolist()))})).SerializeToString()
        for row in rows])


def method_names(directory) -> dict[str, str]:
    from tensorflow.core.protobuf import saved_model_pb2

    saved_model = saved_model_pb2.SavedModel.FromString((directory / "saved_model.pb").read_bytes())
    return {key: signature.method_name for key, signature in saved_model.meta_graphs[0].signature_def.items()
            if not key.startswith("__")}


@pytest.fixture(scope="module")
def classifier(tmp_path_factory):
    model = tiny_model(3)
    regression = regression_head_signatures(model, FEATURE_SPEC)
    signatures = {**classification_head_signatures(model, FEATURE_SPEC, 3, label_vocabulary=["a", "b", "c"]),
                  "regression": regression["regression"], "regression_predict": regression["predict"]}
    directory = save(model, tmp_path_factory.mktemp("classifier") / "export", signatures)
    return model, directory, tf.saved_model.load(str(directory)).signatures


def test_the_heads_surfaces_with_tf_servings_method_names(classifier):
    _, directory, signatures = classifier
    assert method_names(directory) == {"serving_default": CLASSIFY, "classification": CLASSIFY, "predict": PREDICT,
                                       "regression": REGRESS, "regression_predict": PREDICT}
    assert set(signatures["classification"].structured_input_signature[1]) == {"inputs"}
    assert set(signatures["predict"].structured_input_signature[1]) == {"examples"}
    assert set(signatures["predict"].structured_outputs) == {
        "logits", "probabilities", "class_ids", "classes", "all_class_ids", "all_classes"}


def test_the_classification_answers_are_the_models(classifier):
    model, _, signatures = classifier
    logits = graph_outputs(model, ROWS)
    classify = signatures["classification"](inputs=serialized(ROWS))
    np.testing.assert_array_equal(classify["scores"].numpy(), tf.nn.softmax(logits).numpy())
    assert classify["classes"].numpy().tolist() == [[b"a", b"b", b"c"]] * len(ROWS)
    predict = signatures["predict"](examples=serialized(ROWS))
    ids = np.argmax(logits.numpy(), axis=1)
    assert predict["class_ids"].numpy().tolist() == [[i] for i in ids]
    assert predict["classes"].numpy().ravel().tolist() == [b"abc"[i:i + 1] for i in ids]
    assert predict["all_class_ids"].numpy().tolist() == [[0, 1, 2]] * len(ROWS)


def test_the_regression_answers_are_the_models(classifier):
    model, _, signatures = classifier
    expected = graph_outputs(model, ROWS).numpy()
    np.testing.assert_array_equal(signatures["regression"](inputs=serialized(ROWS))["outputs"].numpy(), expected)
    np.testing.assert_array_equal(
        signatures["regression_predict"](examples=serialized(ROWS))["predictions"].numpy(), expected)


@pytest.mark.parametrize(
    "signature, words",
    [
        pytest.param(examples_signature(lambda features: {"scores": features["x"]}, FEATURE_SPEC, "classify"),
                     "needs one string input named 'inputs'", id="classify reading 'examples' instead of 'inputs'"),
        pytest.param(examples_signature(lambda features: {"probabilities": features["x"]}, FEATURE_SPEC, "classify",
                                        "inputs"),
                     "outputs must be among ['classes', 'scores']; got ['probabilities']", id="classify without scores"),
    ],
)
def test_what_tf_serving_would_refuse_is_refused_at_export(signature: Signature, words, tmp_path):
    with pytest.raises(ValueError, match="signature 'bad'") as error:
        save(tiny_model(3), tmp_path / "export", {"bad": signature})
    assert words in str(error.value)
    assert not (tmp_path / "export").exists() and list(tmp_path.iterdir()) == []
