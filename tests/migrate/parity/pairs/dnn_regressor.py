"""A regression pair with serving: the canned `tf.compat.v1.estimator.DNNRegressor` ↔ a Keras MLP.

4 numeric features (one column ``x`` of shape [4]) → 8 relu → 1, the v1
head's summed squared error, SGD; 256 rows of y = x·w + noise (fixed seeds).
The Estimator exports with the feature columns' parsing receiver, so its
SavedModel has the regression head's signatures: ``serving_default`` and
``regression`` (regress: ``outputs``) and ``predict`` (``predictions``), plus
``raw:predict`` taking the feature ``x`` as a tensor (a receiver alternative);
the Keras side gets them from `modern.serving`.
"""
from __future__ import annotations

import tempfile

import numpy as np
import tensorflow as tf

PARAMS = {"batch_size": 32, "learning_rate": 0.01, "hidden_units": [8]}
STEPS = 5
ROWS, FEATURES = 256, 4
_rng = np.random.default_rng(7)
X = _rng.normal(size=(ROWS, FEATURES)).astype(np.float32)
Y = (X @ np.array([[1.5], [-2.0], [0.5], [3.0]], np.float32) + 0.1 * _rng.normal(size=(ROWS, 1))).astype(np.float32)
_SCRATCH = tempfile.TemporaryDirectory(prefix="dnn-regressor-")


def feature_columns():
    return [tf.compat.v1.feature_column.numeric_column("x", shape=(FEATURES,))]


def model_fn(features, labels, mode, params, config=None):
    """The canned regressor's own model_fn (v1 head: the squared error summed over the batch)."""
    regressor = tf.compat.v1.estimator.DNNRegressor(
        hidden_units=list(params["hidden_units"]), feature_columns=feature_columns(),
        optimizer=tf.compat.v1.train.GradientDescentOptimizer(params["learning_rate"]),
        config=config or tf.estimator.RunConfig(model_dir=_SCRATCH.name))
    return regressor.model_fn(features, labels, mode, config)


def _dataset(params, repeat):
    dataset = tf.data.Dataset.from_tensor_slices(({"x": X}, Y))
    return (dataset.repeat() if repeat else dataset).batch(params["batch_size"])


def train_input_fn(params):
    return _dataset(params, repeat=True)


def eval_input_fn(params):
    return _dataset(params, repeat=False)


def build_model(params):
    from tensorflow import keras

    inputs = keras.Input((FEATURES,), name="x")
    hidden = inputs
    for index, units in enumerate(params["hidden_units"]):
        hidden = keras.layers.Dense(units, activation="relu", name=f"hiddenlayer_{index}")(hidden)
    model = keras.Model(inputs, keras.layers.Dense(1, name="logits")(hidden))
    model.compile(keras.optimizers.SGD(params["learning_rate"]), keras.losses.MeanSquaredError(reduction="sum"))
    return model


train_dataset = train_input_fn
eval_dataset = eval_input_fn


def variable_map(tf1_name):
    """``dnn/hiddenlayer_0/kernel/part_0`` → ``hiddenlayer_0/kernel``."""
    return tf1_name.split(":")[0].removesuffix("/part_0").removeprefix("dnn/")


def serving_input_receiver_fn(params):
    """The parsing receiver of the feature columns, and the parsed features fed raw (alternative ``raw``)."""
    spec = tf.compat.v1.feature_column.make_parse_example_spec(feature_columns())
    receiver = tf.estimator.export.build_parsing_serving_input_receiver_fn(spec)()
    return tf.estimator.export.ServingInputReceiver(
        receiver.features, receiver.receiver_tensors, receiver_tensors_alternatives={"raw": receiver.features})


def serving_signatures(model, params):
    """The regression head's signatures, and ``raw:predict`` (the only head output a raw receiver can serve)."""
    from modern.serving import regression_head_signatures, tensors_signature

    signatures = regression_head_signatures(model, {"x": tf.io.FixedLenFeature([FEATURES], tf.float32)})
    signatures["raw:predict"] = tensors_signature(lambda features: {"predictions": model(features, training=False)},
                                                  {"x": tf.TensorSpec([None, FEATURES], tf.float32)})
    return signatures
