"""Pair: a canned `tf.compat.v1.estimator.DNNLinearCombinedClassifier` ↔ Keras' `WideDeepModel` with two optimizers.

Run it: ``migrate parity --pair examples/wide_deep/pair.py`` (see README.md here).

The legacy side is TF1's canned wide-and-deep estimator, its own `model_fn`
untouched: a linear ("wide") part over categorical columns — two vocabulary
columns, a bucketized numeric column and their hashed cross — and a DNN
("deep") part over standardised numeric columns, an embedding column and an
indicator column (the DNN of examples/canned_dnn). The estimator trains the
two parts with their own optimizers: by default FTRL for the linear part
(rate min(0.005, 1/√(linear columns))) and Adagrad for the DNN (rate 0.001).

The modern side is the Keras idiom for the same model: `keras.experimental.
WideDeepModel(linear_model, dnn_model)` compiled with a *list* of two
optimizers, [linear, DNN]. The linear model is a premade `LinearModel` over
sparse one-hot encodings from stock preprocessing layers (`StringLookup`,
`Discretization` + `CategoryEncoding`, `HashedCrossing`, all with
``sparse=True``, so each `Dense` inside `LinearModel` looks its weights up
with `embedding_lookup_sparse`, as the canned linear model does); the DNN
is examples/canned_dnn's functional model. Optimizers: by default the
estimator's own (strings "Ftrl" and "Adagrad") against the TF1-exact twins
`modern.optimizers.Ftrl` and `Adagrad` with the same rates; with
``params["optimizer"] = "sgd"`` (``--optimizer sgd``) Keras' own SGD on
both parts.

Data: the Palmer penguins exactly as examples/canned_dnn loads them (its
loader is imported from that pair file: the pinned wheel, the same split).
Keras 2 only (TF 2.15): `keras.experimental.WideDeepModel` and `LinearModel`
are gone from Keras 3, as `tf.estimator` is from TF 2.16.
"""
from __future__ import annotations

import importlib.util
import math
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import tensorflow as tf
from tensorflow import keras

from modern.optimizers import Adagrad, Ftrl


def _canned_dnn() -> ModuleType:
    """examples/canned_dnn/pair.py, loaded by path: its penguins loader, feature columns and DNN."""
    path = Path(__file__).resolve().parents[1] / "canned_dnn" / "pair.py"
    spec = importlib.util.spec_from_file_location("wide_deep_canned_dnn", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CANNED_DNN = _canned_dnn()
ISLANDS, SEXES, SPECIES = CANNED_DNN.ISLANDS, CANNED_DNN.SEXES, CANNED_DNN.SPECIES
FLIPPER_BOUNDARIES = [190.0, 200.0, 210.0, 220.0]
"""Flipper length (mm) buckets: < 190, 190–200, 200–210, 210–220, ≥ 220."""
CROSS_BUCKETS = 12
CANNED_DNN_LEARNING_RATE = 0.001
CANNED_LINEAR_LEARNING_RATE = 0.005
"""`_DNN_LEARNING_RATE` and `_LINEAR_LEARNING_RATE` of tensorflow_estimator's canned/dnn_linear_combined.py:
the rates `DNNLinearCombinedClassifier` gives its default "Adagrad" and "Ftrl" (not `DNNClassifier`'s 0.05)."""
LINEAR_COLUMNS = ("flipper_length_mm_bucketized", "island", "island_X_sex", "sex")
"""The linear columns' names, sorted as the canned `linear_model` sums them (and `LinearModel` sorts its inputs)."""


# --- the legacy side: the canned estimator --------------------------------------


def linear_feature_columns() -> list:
    fc = tf.compat.v1.feature_column
    island = fc.categorical_column_with_vocabulary_list("island", ISLANDS)
    sex = fc.categorical_column_with_vocabulary_list("sex", SEXES)
    flipper = fc.bucketized_column(fc.numeric_column("flipper_length_mm"), FLIPPER_BOUNDARIES)
    return [island, sex, flipper, fc.crossed_column(["island", "sex"], hash_bucket_size=CROSS_BUCKETS)]


def canned_linear_learning_rate() -> float:
    """The canned estimator's default FTRL rate: min(0.005, 1/√(number of linear columns))."""
    return min(CANNED_LINEAR_LEARNING_RATE, 1.0 / math.sqrt(len(LINEAR_COLUMNS)))


def optimizer_choice(params: Mapping[str, Any]) -> str:
    """``params["optimizer"]``: absent → the canned defaults; "sgd" → gradient descent on both parts."""
    return str(params.get("optimizer") or "canned")


def tf1_optimizers(params: Mapping[str, Any]) -> tuple[Any, Any]:
    """(linear, DNN) optimizers for the estimator: its default names, or gradient descent instances."""
    name = optimizer_choice(params)
    if name == "canned":
        return "Ftrl", "Adagrad"
    if name == "sgd":
        rate = float(params["learning_rate"])
        return tf.compat.v1.train.GradientDescentOptimizer(rate), tf.compat.v1.train.GradientDescentOptimizer(rate)
    raise ValueError(f"wide_deep pair: params['optimizer'] is {name!r}; leave it out (the canned defaults) or give 'sgd'.")


_SCRATCH_MODEL_DIR: list[tempfile.TemporaryDirectory] = []


def canned_estimator(params: Mapping[str, Any], config: Any = None) -> tf.compat.v1.estimator.DNNLinearCombinedClassifier:
    """The canned estimator as TF1 code built it (only its `model_fn` is used here)."""
    if config is None:  # the Estimator would otherwise make a new temporary model dir per call
        if not _SCRATCH_MODEL_DIR:
            _SCRATCH_MODEL_DIR.append(tempfile.TemporaryDirectory(prefix="wide-deep-"))
        config = tf.estimator.RunConfig(model_dir=_SCRATCH_MODEL_DIR[0].name)
    linear_optimizer, dnn_optimizer = tf1_optimizers(params)
    return tf.compat.v1.estimator.DNNLinearCombinedClassifier(
        linear_feature_columns=linear_feature_columns(),
        linear_optimizer=linear_optimizer,
        dnn_feature_columns=CANNED_DNN.feature_columns(params),
        dnn_optimizer=dnn_optimizer,
        dnn_hidden_units=list(params["hidden_units"]),
        n_classes=len(SPECIES),
        config=config,
    )


# --- the modern side: WideDeepModel(LinearModel, DNN) with two optimizers -------


def keras_linear_model() -> keras.Model:
    """Raw island, sex and flipper length → sparse one-hot encodings → `LinearModel` logits [N, 3]."""
    island = keras.Input(shape=(1,), name="island", dtype=tf.string)
    sex = keras.Input(shape=(1,), name="sex", dtype=tf.string)
    flipper = keras.Input(shape=(1,), name="flipper_length_mm", dtype=tf.float32)
    one_hot = {"output_mode": "one_hot", "sparse": True}
    encoded = {
        "flipper_length_mm_bucketized": keras.layers.CategoryEncoding(len(FLIPPER_BOUNDARIES) + 1, **one_hot)(
            keras.layers.Discretization(bin_boundaries=FLIPPER_BOUNDARIES)(flipper)),
        "island": keras.layers.StringLookup(vocabulary=list(ISLANDS), num_oov_indices=0, **one_hot)(island),
        "island_X_sex": keras.layers.HashedCrossing(CROSS_BUCKETS, **one_hot)((island, sex)),
        "sex": keras.layers.StringLookup(vocabulary=list(SEXES), num_oov_indices=0, **one_hot)(sex),
    }
    logits = keras.experimental.LinearModel(units=len(SPECIES), name="linear_model")(encoded)
    return keras.Model({"island": island, "sex": sex, "flipper_length_mm": flipper}, logits, name="linear")


def keras_optimizers(params: Mapping[str, Any]) -> list[keras.optimizers.Optimizer]:
    """[linear, DNN]: the TF1-exact twins with the canned defaults, or Keras' own SGD (README: "Sparse updates")."""
    name = optimizer_choice(params)
    if name == "canned":
        return [Ftrl(canned_linear_learning_rate()), Adagrad(float(params["learning_rate"]))]
    if name == "sgd":
        rate = float(params["learning_rate"])
        return [keras.optimizers.SGD(rate), keras.optimizers.SGD(rate)]
    raise ValueError(f"wide_deep pair: params['optimizer'] is {name!r}; leave it out (the canned defaults) or give 'sgd'.")


def keras_model(params: Mapping[str, Any]) -> keras.Model:
    return keras.experimental.WideDeepModel(keras_linear_model(), CANNED_DNN.keras_model(params), name="wide_deep")


# --- the pair contract -------------------------------------------------------------

PARAMS: dict[str, Any] = {
    "batch_size": 32,
    "hidden_units": [16, 8],
    "embedding_dim": 2,
    "learning_rate": CANNED_DNN_LEARNING_RATE,
}
"""``learning_rate`` is the DNN's (canned default 0.001 for Adagrad); the linear part's FTRL rate is the canned default."""
LEARNING_RATES = {"sgd": 0.002}
"""SGD's rate is small because the canned v1 head sums the loss over the batch of 32."""
PREDICTION_KEY = "logits"


def model_fn(features, labels, mode, params, config=None):
    """The canned `DNNLinearCombinedClassifier`'s own model_fn (v1 head: loss reduced with SUM)."""
    return canned_estimator(params, config).model_fn(features, labels, mode, config)


def train_input_fn(params):
    return CANNED_DNN.train_input_fn(params)


def eval_input_fn(params):
    return CANNED_DNN.eval_input_fn(params)


def build_model(params):
    model = keras_model(params)
    model.compile(
        optimizer=keras_optimizers(params),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="sum"),
        metrics=[keras.metrics.SparseCategoricalAccuracy(name="accuracy")],
    )
    return model


def train_dataset(params):
    return CANNED_DNN.train_dataset(params)


def eval_dataset(params):
    return CANNED_DNN.eval_dataset(params)


_LINEAR_WEIGHTS = {
    **{f"linear/linear_model/{column}/weights": f"linear_model/kernel#{index}"
       for index, column in enumerate(LINEAR_COLUMNS)},
    "linear/linear_model/bias_weights": "linear_model/bias",
}
"""Keras 2 names all of LinearModel's kernels ``linear_model/kernel``: parity numbers alike names ``#0``, ``#1``, …
in the model's weight order (LinearModel's inputs sorted by key, as the canned columns are by name)."""


def variable_map(tf1_name: str) -> str | None:
    """Canned variable → Keras weight: the linear part here, the DNN part as in examples/canned_dnn (``/part_0`` dropped)."""
    name = tf1_name.split(":")[0].removesuffix("/part_0")
    return _LINEAR_WEIGHTS.get(name) or CANNED_DNN.variable_map(name)
