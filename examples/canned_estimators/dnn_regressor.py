"""TF1 source: a canned `tf.compat.v1.estimator.DNNRegressor` on the penguins (body mass in kg).

Only the TF1 half: `migrate port` writes the Keras half (see README.md here).
Columns: three standardised numeric columns, island embedded (dimension 2,
combiner "sqrtn"), sex as an indicator, species by identity as an
indicator. ``params["optimizer"]``: "sgd" or "adagrad" (the estimator's
default, ``'Adagrad'`` at 0.05).
"""
from __future__ import annotations

import tempfile

import numpy as np
import tensorflow as tf
from penguins import ISLANDS, SEXES, SPECIES, load_split, standardization, standardize

fc = tf.compat.v1.feature_column
PARAMS = {"batch_size": 32, "optimizer": "sgd", "learning_rate": 0.0005, "hidden_units": [16, 8]}
LEARNING_RATES = {"sgd": 0.0005, "adagrad": None}
_MODEL_DIR = tempfile.mkdtemp(prefix="canned-dnn-regressor-")
FEATURES = ("bill_length_mm", "bill_depth_mm", "flipper_length_mm")


def feature_columns():
    constants = standardization()
    columns = [fc.numeric_column(key, normalizer_fn=standardize(*constants[key])) for key in FEATURES]
    island = fc.categorical_column_with_vocabulary_list("island", ISLANDS)
    columns.append(fc.embedding_column(island, dimension=2, combiner="sqrtn"))
    columns.append(fc.indicator_column(fc.categorical_column_with_vocabulary_list("sex", SEXES)))
    columns.append(fc.indicator_column(fc.categorical_column_with_identity("species", len(SPECIES))))
    return columns


def estimator(params):
    optimizer = ("Adagrad" if params["optimizer"] == "adagrad"
                 else tf.compat.v1.train.GradientDescentOptimizer(params["learning_rate"]))
    return tf.compat.v1.estimator.DNNRegressor(
        hidden_units=params["hidden_units"], feature_columns=feature_columns(), optimizer=optimizer,
        config=tf.estimator.RunConfig(model_dir=_MODEL_DIR))


def model_fn(features, labels, mode, params):
    return estimator(params).model_fn(features, labels, mode, None)


def _dataset(split, batch_size, repeat):
    features, _ = load_split(split)
    features = dict(features)
    labels = (features["body_mass_g"] / np.float32(1000.0)).astype(np.float32)
    features["species"] = load_split(split)[1].reshape(-1, 1).astype(np.int64)
    dataset = tf.data.Dataset.from_tensor_slices((features, labels))
    return (dataset.repeat() if repeat else dataset).batch(batch_size)


def train_input_fn(params):
    return _dataset("train", params["batch_size"], repeat=True)


def eval_input_fn(params):
    return _dataset("eval", params["batch_size"], repeat=False)
