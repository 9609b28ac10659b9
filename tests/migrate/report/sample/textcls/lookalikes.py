"""Names that look like TF1 APIs but are not: none of these lines must be reported."""
import requests
import tensorflow as tf
from absl import flags
from absl import logging

flags.DEFINE_integer("steps", 100, "absl flags, not tf.flags")
FLAGS = flags.FLAGS


def fetch(url):
    session = requests.Session()
    return session.get(url)


class Estimator:
    """A user class that happens to share a TF name."""

    def train(self, input_fn, hooks=None):
        return input_fn()


def build(hparams, layer):
    logging.info("steps=%d", FLAGS.steps)
    init = hparams.initializer
    kernel = layer.kernel_initializer
    steps = FLAGS.steps
    return Estimator().train(lambda: (init, kernel, steps))


def compat_checks(tf):
    """`tf` is a parameter here, not the module."""
    return tf.Session()


def modern(model, dataset):
    dataset = tf.data.Dataset.range(10).batch(2)
    for batch in dataset:
        model.train_on_batch(batch)
    optimizer = tf.keras.optimizers.Adam(1e-3)
    return tf.summary.create_file_writer("/tmp/logs"), optimizer
