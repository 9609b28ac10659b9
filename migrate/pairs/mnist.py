"""The built-in pair: the MNIST conv net, `legacy/` (Estimator) against `modern/` (Keras).

`migrate parity` runs it by default (`--pair mnist`). It is a pair file like
any user's — loaded by path, never imported as `migrate.pairs.mnist` — and the
one place in `migrate/` that names `legacy` and `modern`: the parity engine
itself knows neither. TensorFlow and both sides are imported inside the
functions, so `--side modern` runs on TF 2.21 where `tf.estimator` is gone.

The legacy input is the TF1 recipe's order (`legacy.inputs`: examples →
``shuffle(10_000, seed)`` when shuffling → ``repeat()`` → ``batch``), read by
index so no array is embedded in the graph; the modern input is the real
rebuild, `modern.pipeline.train_dataset`. ``--param train_examples=N`` and
``--param eval_examples=N`` keep the first N training or test images (all
by default): a short distributed run needs no more. Modes: ``exact`` (dropout off, no
shuffling; bit-identical with SGD, and with Adam through the TF1-exact
optimizer the Keras side uses by default) and ``statistical`` (the real config: dropout
0.5, shuffling, Adam; accuracy decides).
"""
from __future__ import annotations

import functools

from migrate.core.mnist_model import DEFAULT_LEARNING_RATES, DEFAULT_PARAMS, IMAGE_SHAPE

PARAMS = {"batch_size": 128, "adam_epsilon": DEFAULT_PARAMS["adam_epsilon"], "optimizer_flavour": "exact"}
"""``optimizer_flavour`` (Keras side only): "exact" trains with the TF1-exact twin from `modern/optimizers`
(bit-identical for every optimizer), "native" with Keras' own (`migrate parity --optimizer-flavour native`)."""
MODE_PARAMS = {
    "exact": {"optimizer": "sgd", "learning_rate": DEFAULT_LEARNING_RATES["sgd"], "dropout_rate": 0.0, "shuffle": False},
    "statistical": {"optimizer": "adam", "learning_rate": DEFAULT_LEARNING_RATES["adam"], "dropout_rate": 0.5,
                    "shuffle": True},
}
LEARNING_RATES = DEFAULT_LEARNING_RATES
STEPS = {"exact": 300, "statistical": 2000}
ACCURACY_BAR = {"statistical": 0.98}
PREDICTION_KEY = "logits"
SHUFFLE_BUFFER = 10_000


@functools.lru_cache(maxsize=1)
def mnist():
    """MNIST from `$MNIST_DATA_DIR` or the cache (`migrate fetch-mnist`), loaded once per process."""
    from migrate.core.mnist import load_mnist

    return load_mnist()


def train_arrays(params):
    """(images, labels) of the training set, its first ``params["train_examples"]`` when given."""
    count = params.get("train_examples")
    return mnist().x_train[:count], mnist().y_train[:count]


def eval_arrays(params):
    """(images, labels) of the test set, its first ``params["eval_examples"]`` when given."""
    count = params.get("eval_examples")
    return mnist().x_test[:count], mnist().y_test[:count]


def model_params(params: dict) -> dict:
    """The keys both `legacy.model.model_fn` and `modern.model.build_model` take."""
    return {key: params[key] for key in DEFAULT_PARAMS if key in params}


def _indexed(images, labels, indices):
    """A dataset of (images, labels) batches gathered by an index dataset: the order is the index order."""
    import numpy as np
    import tensorflow as tf

    def gather(batch_indices):
        return images[batch_indices], labels[batch_indices].astype(np.int64)

    def load(batch_indices):
        x, y = tf.numpy_function(gather, [batch_indices], (tf.uint8, tf.int64))
        x.set_shape([None, *IMAGE_SHAPE])
        y.set_shape([None])
        return x, y

    return indices.map(load)


def model_fn(features, labels, mode, params):
    from legacy.model import model_fn as legacy_model_fn

    return legacy_model_fn(features, labels, mode, {**model_params(params), "seed": params["seed"]})


def train_input_fn(params):
    import tensorflow as tf

    images, labels = train_arrays(params)
    indices = tf.data.Dataset.range(len(images))
    if params["shuffle"]:
        indices = indices.shuffle(SHUFFLE_BUFFER, seed=params["seed"])
    return _indexed(images, labels, indices.repeat().batch(params["batch_size"]))


def eval_input_fn(params):
    import tensorflow as tf

    images, labels = eval_arrays(params)
    return _indexed(images, labels, tf.data.Dataset.range(len(images)).batch(params["batch_size"]))


def build_model(params):
    from modern.model import build_model as modern_build_model

    return modern_build_model(
        model_params(params), seed=params["seed"], optimizer_flavour=params.get("optimizer_flavour", "exact")
    )


def train_dataset(params):
    from modern.pipeline import train_dataset as modern_train_dataset

    images, labels = train_arrays(params)
    return modern_train_dataset(images, labels, params["batch_size"], shuffle_seed=params["seed"] if params["shuffle"] else None)


def eval_dataset(params):
    from modern.pipeline import eval_dataset as modern_eval_dataset

    images, labels = eval_arrays(params)
    return modern_eval_dataset(images, labels, params["batch_size"])


def serving_input_receiver_fn(params):
    """Serialized tf.Examples, or raw uint8 images (`legacy.model.serving_input_receiver_fn`)."""
    from legacy.model import serving_input_receiver_fn as receiver

    return receiver()


def serving_signatures(model, params):
    """The same signatures on the Keras model (`modern.model.serving_signatures`, built with `modern.serving`)."""
    from modern.model import serving_signatures as signatures

    return signatures(model)


def legacy_scenarios(params, workdir):
    """The six protocol scenarios of `migrate.core.scenarios` on the Estimator."""
    from legacy.parity_scenarios import run_scenarios

    return run_scenarios(params, workdir, mnist().x_train, mnist().y_train)


def modern_scenarios(params, fresh_model):
    """The same scenarios with Keras fit/evaluate/predict, each on a fresh model with the initial weights."""
    from modern.parity_scenarios import run_scenarios

    return run_scenarios(params["scenarios"], fresh_model, mnist().x_train, mnist().y_train)
