"""`tf.contrib.framework`'s global step and model variables: TF 1.15 aliases the core functions there."""
from __future__ import annotations

import tensorflow as tf

from migrate.port.contrib.layers import model_variable
from migrate.port.contrib.registry import ContribTwin

TWINS = (
    ContribTwin("framework.get_global_step", lambda: tf.compat.v1.train.get_global_step,
                "tf.compat.v1.train.get_global_step (the same function)"),
    ContribTwin("framework.get_or_create_global_step", lambda: tf.compat.v1.train.get_or_create_global_step,
                "tf.compat.v1.train.get_or_create_global_step (the same function)"),
    ContribTwin("framework.create_global_step", lambda: tf.compat.v1.train.create_global_step,
                "tf.compat.v1.train.create_global_step (the same function)"),
    ContribTwin("framework.model_variable", lambda: model_variable,
                "tf.compat.v1.get_variable, also listed in GraphKeys.MODEL_VARIABLES, as in TF 1.15"),
)
