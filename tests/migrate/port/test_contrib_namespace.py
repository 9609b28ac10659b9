"""`tf.contrib` is installed on every spelling of TF1's namespace, on TF 2.15 and on TF 2.21 (where the Keras side of a
parity run imports the user's module: its tf.contrib names must resolve there too)."""
from __future__ import annotations

import importlib

import pytest

pytestmark = pytest.mark.tensorflow


def test_every_spelling_of_the_tf1_namespace_gets_contrib():
    import tensorflow as tf

    from migrate.port.contrib import install

    install()
    imported = importlib.import_module("tensorflow.compat.v1")  # not the object tf.compat.v1 is on TF 2.16 on
    for tf1 in (tf, tf.compat.v1, imported):
        assert tf1.contrib.framework.get_global_step is tf.compat.v1.train.get_global_step
    framework = importlib.import_module("tensorflow.contrib.framework")
    assert framework.get_or_create_global_step is tf.compat.v1.train.get_or_create_global_step
