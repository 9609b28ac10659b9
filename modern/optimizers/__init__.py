"""Keras optimizers that apply exactly TF1's updates, one file per `tf.compat.v1.train` optimizer.

Each file imports only TensorFlow/Keras and `modern.optimizers.base`: copy
both into a project. `make_optimizer(name, flavour="exact"|"native", **tf1_kwargs)`
in `modern.optimizers.flavours` builds either the exact twin or Keras' own
optimizer configured with the TF1 hyperparameters.
"""
from __future__ import annotations

from modern.optimizers.adagrad import Adagrad
from modern.optimizers.adam import Adam
from modern.optimizers.ftrl import Ftrl
from modern.optimizers.gradient_descent import GradientDescent
from modern.optimizers.keras_legacy_adagrad import KerasLegacyAdagrad
from modern.optimizers.momentum import Momentum
from modern.optimizers.parts import Parts
from modern.optimizers.rmsprop import RMSProp

__all__ = ["Adagrad", "Adam", "Ftrl", "GradientDescent", "KerasLegacyAdagrad", "Momentum", "Parts", "RMSProp"]
