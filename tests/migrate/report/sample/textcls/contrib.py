"""Wrapper functions that hand out tf.contrib modules lazily (so importing this file is cheap)."""
import tensorflow as tf


def slim():
    from tensorflow.contrib import slim as contrib_slim  # expect: TFM501
    return contrib_slim


def tpu():
    from tensorflow.contrib import tpu as contrib_tpu  # expect: TFM501
    return contrib_tpu


def learn():
    from tensorflow.contrib import learn as contrib_learn  # expect: TFM501
    return contrib_learn


def is_tf2():
    return tf.__version__.startswith("2")
