"""`LabelEncodingModel`: fit on string labels trains exactly as fit on the head's ids (both Keras versions)."""
from __future__ import annotations

import keras
import numpy as np
import tensorflow as tf

from modern.heads import Head, LabelEncodingModel

HEAD = Head("multi_class", n_classes=3, loss_reduction="sum", label_vocabulary=("cat", "dog", "eel"), api="v1")
FEATURES = np.random.default_rng(0).normal(size=(8, 4)).astype(np.float32)
LABELS = np.array(["dog", "cat", "eel", "eel", "cat", "dog", "dog", "cat"])


def _model(cls):
    keras.utils.set_random_seed(1)
    inputs = keras.Input(shape=(4,), name="x")
    model = cls(inputs, keras.layers.Dense(3, name="logits")(inputs))
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss=HEAD.loss(), metrics=HEAD.metrics())
    return model


def test_string_labels_train_like_their_ids():
    encoding = _model(LabelEncodingModel)
    encoding.head = HEAD
    plain = _model(keras.Model)
    plain.set_weights(encoding.get_weights())
    strings = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS)).batch(4)
    ids = tf.data.Dataset.from_tensor_slices((FEATURES, HEAD.encode_labels(tf.constant(LABELS)))).batch(4)
    encoding.fit(strings, epochs=2, verbose=0)
    plain.fit(ids, epochs=2, verbose=0)
    for expected, actual in zip(plain.get_weights(), encoding.get_weights()):
        np.testing.assert_array_equal(actual, expected)
    assert encoding.evaluate(strings, verbose=0, return_dict=True) == plain.evaluate(ids, verbose=0, return_dict=True)
