"""The MNIST model contract, written once: what `legacy` and `modern` build and the MNIST pair compares.

Both sides build the same conv net (`legacy.model.model_fn`, the TF1
Estimator; `modern.model.build_model`, its Keras twin). What they must agree
on lives here, TensorFlow-free:

* `DEFAULT_PARAMS` and `OPTIMIZERS`: the hyperparameters both accept;
* `LAYER_NAMES` / `VARIABLE_SHAPES`: the legacy variable scopes are the Keras
  layer names; ``<layer>/weights`` is the layer's `kernel`, ``<layer>/biases``
  its `bias` (`LEGACY_SUFFIXES`), in creation order;
* `LOSS_OP_NAME` / `LOSS_TENSOR_NAME`: the graph name hooks fetch the training loss by.
"""
from __future__ import annotations

from typing import Any

DEFAULT_PARAMS: dict[str, Any] = {
    "learning_rate": 1e-3,
    "optimizer": "adam",
    "dropout_rate": 0.5,
    "adam_epsilon": 1e-8,
}
"""The tutorial's hyperparameters; `params` given to either side override them key by key."""

OPTIMIZERS = ("adam", "sgd")
DEFAULT_LEARNING_RATES = {"sgd": 0.05, "adam": 1e-3}
"""SGD needs a larger step than Adam to learn in a few hundred steps."""

IMAGE_SHAPE = (28, 28)
NUM_CLASSES = 10
EXAMPLE_FEATURE = "image"
"""The `tf.Example` feature serving clients send: the image's 784 pixels as an int64 list ([28, 28] when parsed)."""
LAYER_NAMES = ("conv1", "conv2", "fc1", "fc2", "logits")
LEGACY_SUFFIXES = {"kernel": "weights", "bias": "biases"}
"""Keras weight attribute → legacy variable suffix: ``fc1.kernel`` is ``fc1/weights``."""

VARIABLE_SHAPES: dict[str, tuple[int, ...]] = {
    "conv1/weights": (5, 5, 1, 20),
    "conv1/biases": (20,),
    "conv2/weights": (5, 5, 20, 40),
    "conv2/biases": (40,),
    "fc1/weights": (640, 256),
    "fc1/biases": (256,),
    "fc2/weights": (256, 256),
    "fc2/biases": (256,),
    "logits/weights": (256, 10),
    "logits/biases": (10,),
}
"""Legacy checkpoint name → shape of every model variable, in creation order."""

LOSS_OP_NAME = "loss"
"""The op the legacy graphs name their training loss with (`tf.identity(loss, name=LOSS_OP_NAME)`)."""
LOSS_TENSOR_NAME = f"{LOSS_OP_NAME}:0"
"""The training loss in the legacy graph, the tensor hooks fetch."""

GLOBAL_STEP_NAME = "global_step"


def default_learning_rate(optimizer: str) -> float:
    """The learning rate used when none is given: 0.05 for SGD, 1e-3 for Adam."""
    return DEFAULT_LEARNING_RATES[optimizer]
