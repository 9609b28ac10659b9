"""TF1 source: a canned v2 `tf.estimator.DNNClassifier` on the penguins, with shared embeddings.

Only the TF1 half: `migrate port` writes the Keras half (see README.md here).
What differs from the v1 estimators: the loss is the mean over the batch
(``SUM_OVER_BATCH_SIZE``), the optimizers are legacy Keras optimizers
(``params["optimizer"]``: "sgd" → ``tf.keras.optimizers.legacy.SGD``,
"adagrad" → the estimator's default ``'Adagrad'``), and — a quirk the port
must keep — the v2 DNN model never trains a shared embedding table (its
variable is trainable but left out of the optimizer's list). Island and
sex (with one OOV bucket, so both have 3 ids) share one 2-wide table.
"""
from __future__ import annotations

import tempfile

import tensorflow as tf
from penguins import ISLANDS, SEXES, SPECIES, load_split, standardization, standardize

fc = tf.feature_column
PARAMS = {"batch_size": 32, "optimizer": "sgd", "learning_rate": 0.05, "hidden_units": [16, 8]}
LEARNING_RATES = {"sgd": 0.05, "adagrad": None}
_MODEL_DIR = tempfile.mkdtemp(prefix="canned-dnn-v2-")


def feature_columns():
    columns = [fc.numeric_column(key, normalizer_fn=standardize(*constants))
               for key, constants in standardization().items()]
    island = fc.categorical_column_with_vocabulary_list("island", ISLANDS)
    sex = fc.categorical_column_with_vocabulary_list("sex", SEXES, num_oov_buckets=1)
    return [*columns, *fc.shared_embeddings([island, sex], dimension=2)]


def estimator(params):
    optimizer = ("Adagrad" if params["optimizer"] == "adagrad"
                 else tf.keras.optimizers.legacy.SGD(params["learning_rate"]))
    return tf.estimator.DNNClassifier(
        hidden_units=params["hidden_units"], feature_columns=feature_columns(), n_classes=len(SPECIES),
        optimizer=optimizer, config=tf.estimator.RunConfig(model_dir=_MODEL_DIR))


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
