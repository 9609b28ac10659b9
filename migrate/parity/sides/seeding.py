"""Seed every random source a side draws from, before it builds anything, so a command gives the same result twice.

The graph seed (`tf.compat.v1.set_random_seed`, the Estimator's `RunConfig.tf_random_seed`)
does not reach everything: Keras 2 layers and initializers created inside a `model_fn`
without a seed draw theirs from Python's `random` (`keras.backend.RandomGenerator`), a
pair's own code may call NumPy. Both sides call `seed_everything` before each model
they build; the legacy side then draws its initial values twice and names any variable
that still differs (an initializer seeded from somewhere else).
"""
from __future__ import annotations

import random

import numpy as np
import tensorflow as tf


def seed_everything(seed: int) -> None:
    """Python's `random`, NumPy's global generator, TensorFlow's global seed and Keras' seed generator."""
    random.seed(seed)
    np.random.seed(seed)
    tf.random.set_seed(seed)
    tf.keras.utils.set_random_seed(seed)
