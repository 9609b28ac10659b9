"""TF1 source: a canned `tf.compat.v1.estimator.DNNLinearCombinedClassifier` (wide & deep) on the penguins.

Only the TF1 half: `migrate port` writes the Keras half (see README.md here).
Wide (linear) part: island × sex crossed (12 buckets), bill length
bucketized, island by vocabulary. Deep part: four standardised numeric
columns, island embedded, and the island × sex cross embedded (dimension 2).
``params["optimizer"]``: "sgd" (gradient descent for both parts) or
"canned" — the estimator's defaults, ``'Ftrl'`` for the linear part and
``'Adagrad'`` for the DNN part, each with its canned default learning rate.
"""
from __future__ import annotations

import tempfile

import tensorflow as tf
from penguins import ISLANDS, SEXES, SPECIES, load_split, standardization, standardize

fc = tf.compat.v1.feature_column
PARAMS = {"batch_size": 32, "optimizer": "sgd", "learning_rate": 0.002, "hidden_units": [16, 8]}
LEARNING_RATES = {"sgd": 0.002, "canned": None}
_MODEL_DIR = tempfile.mkdtemp(prefix="canned-wide-deep-")


def columns():
    island = fc.categorical_column_with_vocabulary_list("island", ISLANDS)
    sex = fc.categorical_column_with_vocabulary_list("sex", SEXES)
    island_x_sex = fc.crossed_column([island, sex], 12)
    bill = fc.bucketized_column(fc.numeric_column("bill_length_mm"), [40.0, 45.0, 50.0])
    wide = [island_x_sex, bill, island]
    deep = [fc.numeric_column(key, normalizer_fn=standardize(*constants))
            for key, constants in standardization().items()]
    deep += [fc.embedding_column(island, dimension=2), fc.embedding_column(island_x_sex, dimension=2)]
    return wide, deep


def estimator(params):
    wide, deep = columns()
    if params["optimizer"] == "canned":
        linear_optimizer, dnn_optimizer = "Ftrl", "Adagrad"
    else:
        linear_optimizer = tf.compat.v1.train.GradientDescentOptimizer(params["learning_rate"])
        dnn_optimizer = tf.compat.v1.train.GradientDescentOptimizer(params["learning_rate"])
    return tf.compat.v1.estimator.DNNLinearCombinedClassifier(
        linear_feature_columns=wide, linear_optimizer=linear_optimizer,
        dnn_feature_columns=deep, dnn_optimizer=dnn_optimizer, dnn_hidden_units=params["hidden_units"],
        n_classes=len(SPECIES), config=tf.estimator.RunConfig(model_dir=_MODEL_DIR))


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
