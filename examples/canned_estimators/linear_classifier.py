"""TF1 source: a canned `tf.compat.v1.estimator.LinearClassifier` on the penguins (species from 7 columns).

Only the TF1 half: `migrate port` writes the Keras half (see README.md here).
Columns: four standardised numeric columns, flipper length bucketized, island
and sex by vocabulary (one OOV bucket), and island × sex crossed into 12
hash buckets. ``params["optimizer"]``: "sgd" (`GradientDescentOptimizer`)
or "ftrl" — the estimator's own default, ``'Ftrl'`` with its default
learning rate min(0.2, 1/sqrt(#columns)).
"""
from __future__ import annotations

import tempfile

import tensorflow as tf
from penguins import ISLANDS, SEXES, SPECIES, load_split, standardization, standardize

fc = tf.compat.v1.feature_column
PARAMS = {"batch_size": 32, "optimizer": "sgd", "learning_rate": 0.002}
LEARNING_RATES = {"sgd": 0.002, "ftrl": None}
"""`migrate parity --optimizer ftrl`: the canned default optimizer, at its own learning rate (None: not ours)."""
_MODEL_DIR = tempfile.mkdtemp(prefix="canned-linear-")


def feature_columns():
    columns = [fc.numeric_column(key, normalizer_fn=standardize(*constants))
               for key, constants in standardization().items()]
    island = fc.categorical_column_with_vocabulary_list("island", ISLANDS, num_oov_buckets=1)
    sex = fc.categorical_column_with_vocabulary_list("sex", SEXES, num_oov_buckets=1)
    flipper = fc.bucketized_column(fc.numeric_column("flipper_length_mm"), [190.0, 200.0, 210.0, 220.0])
    return [*columns, island, sex, flipper, fc.crossed_column(["island", "sex"], 12)]


def estimator(params):
    optimizer = ("Ftrl" if params["optimizer"] == "ftrl"
                 else tf.compat.v1.train.GradientDescentOptimizer(params["learning_rate"]))
    return tf.compat.v1.estimator.LinearClassifier(
        feature_columns=feature_columns(), n_classes=len(SPECIES), optimizer=optimizer,
        config=tf.estimator.RunConfig(model_dir=_MODEL_DIR))


def model_fn(features, labels, mode, params):
    return estimator(params).model_fn(features, labels, mode, None)


def _dataset(split, batch_size, repeat):
    features, labels = load_split(split)
    dataset = tf.data.Dataset.from_tensor_slices((features, labels))
    return (dataset.repeat() if repeat else dataset).batch(batch_size)


def train_input_fn(params):
    return _dataset("train", params["batch_size"], repeat=True)


def eval_input_fn(params):
    return _dataset("eval", params["batch_size"], repeat=False)
