"""A plain `tf.compat.v1` graph of the legacy network, built here so tests never import `legacy`.

The ops mirror the contract of `legacy.model.logits_fn` exactly (raw
`get_variable` under the legacy scopes, `tf.nn.bias_add`, v1 sparse softmax
cross-entropy, `GradientDescentOptimizer`), so a Keras model with the same
weights must give identical logits and identical per-step SGD losses.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import tensorflow as tf

VARIABLE_SHAPES = {
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


@dataclass
class Tf1Graph:
    graph: tf.Graph
    session: tf.compat.v1.Session
    images: tf.Tensor
    labels: tf.Tensor
    logits: tf.Tensor
    loss: tf.Tensor
    train_op: tf.Operation
    saver: tf.compat.v1.train.Saver

    def run_logits(self, images: np.ndarray) -> np.ndarray:
        return self.session.run(self.logits, {self.images: images})

    def sgd_losses(self, batches: list[tuple[np.ndarray, np.ndarray]]) -> list[float]:
        losses = []
        for images, labels in batches:
            loss, _ = self.session.run([self.loss, self.train_op], {self.images: images, self.labels: labels})
            losses.append(loss)
        return losses


def _variable(name: str, seed: int) -> tf.Variable:
    shape = VARIABLE_SHAPES[name]
    if name.endswith("/biases"):
        initializer = tf.compat.v1.random_uniform_initializer(-0.1, 0.1, seed=seed)
    else:
        initializer = tf.compat.v1.glorot_uniform_initializer(seed=seed)
    return tf.compat.v1.get_variable(name, shape=shape, dtype=tf.float32, initializer=initializer)


def build_tf1_graph(learning_rate: float = 0.1, seed: int = 7, optimizer: Callable[[], Any] | None = None) -> Tf1Graph:
    """The legacy network in a fresh graph, variables initialised (random biases, to test them too).

    `optimizer` builds the TF1 optimizer (default: GradientDescent at `learning_rate`).
    """
    graph = tf.Graph()
    with graph.as_default():
        variables = {name: _variable(name, seed + index) for index, name in enumerate(VARIABLE_SHAPES)}
        images = tf.compat.v1.placeholder(tf.uint8, [None, 28, 28])
        labels = tf.compat.v1.placeholder(tf.int64, [None])
        x = tf.reshape(tf.cast(images, tf.float32) / 255.0, [-1, 28, 28, 1])
        for scope in ("conv1", "conv2"):
            x = tf.nn.conv2d(x, variables[f"{scope}/weights"], strides=1, padding="VALID")
            x = tf.nn.relu(tf.nn.bias_add(x, variables[f"{scope}/biases"]))
            x = tf.nn.max_pool2d(x, ksize=2, strides=2, padding="VALID")
        x = tf.reshape(x, [-1, 640])
        for scope in ("fc1", "fc2"):
            x = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, variables[f"{scope}/weights"]), variables[f"{scope}/biases"]))
        logits = tf.nn.bias_add(tf.matmul(x, variables["logits/weights"]), variables["logits/biases"])
        loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels=tf.cast(labels, tf.int32), logits=logits)
        global_step = tf.compat.v1.train.get_or_create_global_step()
        tf1_optimizer = optimizer() if optimizer else tf.compat.v1.train.GradientDescentOptimizer(learning_rate)
        train_op = tf1_optimizer.minimize(loss, global_step=global_step)
        saver = tf.compat.v1.train.Saver()
        session = tf.compat.v1.Session(graph=graph)
        session.run(tf.compat.v1.global_variables_initializer())
    return Tf1Graph(graph, session, images, labels, logits, loss, train_op, saver)
