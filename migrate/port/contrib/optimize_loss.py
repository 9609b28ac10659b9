"""`tf.contrib.layers.optimize_loss`, as TF 1.15 writes it (tensorflow/contrib/layers/python/layers/optimizers.py).

Within variable scope ``OptimizeLoss``: the UPDATE_OPS run before the loss, a
float learning rate becomes the non-trainable variable ``learning_rate``, the
optimizer is made from its name, class, function or instance, the gradients of
the trainable variables are computed, optionally clipped by global norm (a
float `clip_gradients`) or by a function, applied with the global step, and the
train op is the loss run after the update. Gradient noise and gradient
multipliers have no twin here: they raise, naming themselves.
"""
from __future__ import annotations

import tensorflow as tf
from tensorflow.python.ops.control_flow_ops import with_dependencies

from migrate.port.contrib.registry import ContribTwin

OPTIMIZER_CLS_NAMES = {
    "Adagrad": lambda learning_rate: tf.compat.v1.train.AdagradOptimizer(learning_rate=learning_rate),
    "Adam": lambda learning_rate: tf.compat.v1.train.AdamOptimizer(learning_rate=learning_rate),
    "Ftrl": lambda learning_rate: tf.compat.v1.train.FtrlOptimizer(learning_rate=learning_rate),
    "Momentum": lambda learning_rate: tf.compat.v1.train.MomentumOptimizer(learning_rate, momentum=0.9),
    "RMSProp": lambda learning_rate: tf.compat.v1.train.RMSPropOptimizer(learning_rate=learning_rate),
    "SGD": lambda learning_rate: tf.compat.v1.train.GradientDescentOptimizer(learning_rate=learning_rate),
}
"""TF 1.15's optimizer names (`OPTIMIZER_CLS_NAMES`): ``Momentum`` is momentum 0.9."""
OPTIMIZER_SUMMARIES = ["learning_rate", "loss", "gradients", "gradient_norm", "global_gradient_norm"]


def _learning_rate(learning_rate):
    if isinstance(learning_rate, tf.Tensor) and learning_rate.get_shape().ndims == 0:
        return learning_rate
    if isinstance(learning_rate, float):
        if learning_rate < 0.0:
            raise ValueError(f"Invalid learning_rate {learning_rate}.")
        return tf.compat.v1.get_variable("learning_rate", [], trainable=False,
                                         initializer=tf.compat.v1.constant_initializer(learning_rate))
    raise ValueError(f"Learning rate should be 0d Tensor or float. Got {learning_rate} of type {type(learning_rate)}")


def _optimizer(optimizer, lr, learning_rate):
    base = tf.compat.v1.train.Optimizer
    if isinstance(optimizer, str):
        if lr is None:
            raise ValueError(f"Learning rate is None, but should be specified if optimizer is string ({optimizer}).")
        if optimizer not in OPTIMIZER_CLS_NAMES:
            raise ValueError(f"Optimizer name should be one of [{', '.join(OPTIMIZER_CLS_NAMES)}], you provided "
                             f"{optimizer}.")
        return OPTIMIZER_CLS_NAMES[optimizer](lr)
    if isinstance(optimizer, type) and issubclass(optimizer, base):
        if lr is None:
            raise ValueError(f"Learning rate is None, but should be specified if optimizer is class ({optimizer}).")
        return optimizer(learning_rate=lr)
    if isinstance(optimizer, base):
        return optimizer
    if callable(optimizer):
        made = optimizer(lr) if learning_rate is not None else optimizer()
        if not isinstance(made, base):
            raise ValueError(f"Unrecognized optimizer: function should return subclass of Optimizer. Got {made}.")
        return made
    raise ValueError("Unrecognized optimizer: should be string, subclass of Optimizer, instance of subclass of "
                     f"Optimizer or function with one argument. Got {optimizer}.")


def _summaries(summaries):
    if summaries is None:
        return ["loss", "learning_rate", "global_gradient_norm"]
    for summary in summaries:
        if summary not in OPTIMIZER_SUMMARIES:
            raise ValueError(f"Summaries should be one of [{', '.join(OPTIMIZER_SUMMARIES)}], you provided {summary}.")
    return summaries


def _clipped(gradients, clip_gradients):
    if isinstance(clip_gradients, float):
        values, variables = zip(*gradients)
        clipped, _ = tf.clip_by_global_norm(values, clip_gradients)
        return list(zip(clipped, variables))
    if callable(clip_gradients):
        return clip_gradients(gradients)
    if clip_gradients is not None:
        raise ValueError(f"Unknown type {type(clip_gradients)} for clip_gradients")
    return gradients


def _gradient_summaries(gradients, summaries) -> None:
    for gradient, variable in gradients:
        values = gradient.values if isinstance(gradient, tf.IndexedSlices) else gradient
        if values is not None:
            name = variable.name.replace(":", "_")
            if "gradients" in summaries:
                tf.compat.v1.summary.histogram(f"gradients/{name}", values)
            if "gradient_norm" in summaries:
                tf.compat.v1.summary.scalar(f"gradient_norm/{name}", tf.linalg.global_norm([values]))


def optimize_loss(loss, global_step, learning_rate, optimizer, gradient_noise_scale=None, gradient_multipliers=None,
                  clip_gradients=None, learning_rate_decay_fn=None, update_ops=None, variables=None, name=None,
                  summaries=None, colocate_gradients_with_ops=False, increment_global_step=True):
    """TF 1.15's `optimize_loss`: the train op (the loss, computed after the update), built as described above."""
    if gradient_noise_scale is not None or gradient_multipliers is not None:
        raise ValueError("tf.contrib.layers.optimize_loss(gradient_noise_scale=…, gradient_multipliers=…) has no "
                         "TF1-core twin that migrate port runs: scale or perturb the gradients yourself between "
                         "compute_gradients and apply_gradients")
    loss = tf.convert_to_tensor(loss)
    if loss.get_shape().ndims != 0:
        raise ValueError(f"Expected scalar shape, saw shape: {loss.get_shape()}.")
    if global_step is None:
        global_step = tf.compat.v1.train.get_global_step()
    else:
        tf.compat.v1.train.assert_global_step(global_step)
    with tf.compat.v1.variable_scope(name, "OptimizeLoss", [loss, global_step]):
        if update_ops is None:
            update_ops = set(tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS))
        if update_ops:
            loss = with_dependencies(list(update_ops), loss)
        lr = _learning_rate(learning_rate) if learning_rate is not None else None
        summaries = _summaries(summaries)
        if learning_rate is not None and learning_rate_decay_fn is not None:
            if global_step is None:
                raise ValueError("global_step is required for learning_rate_decay_fn.")
            lr = learning_rate_decay_fn(lr, global_step)
            if "learning_rate" in summaries:
                tf.compat.v1.summary.scalar("learning_rate", lr)
        opt = _optimizer(optimizer, lr, learning_rate)
        if variables is None:
            variables = tf.compat.v1.trainable_variables()
        gradients = opt.compute_gradients(loss, variables, colocate_gradients_with_ops=colocate_gradients_with_ops)
        if "global_gradient_norm" in summaries or "gradient_norm" in summaries:
            tf.compat.v1.summary.scalar("global_norm/gradient_norm", tf.linalg.global_norm(list(zip(*gradients))[0]))
        gradients = _clipped(gradients, clip_gradients)
        if "loss" in summaries:
            tf.compat.v1.summary.scalar("loss", loss)
        _gradient_summaries(gradients, summaries)
        if clip_gradients is not None and ("global_gradient_norm" in summaries or "gradient_norm" in summaries):
            tf.compat.v1.summary.scalar("global_norm/clipped_gradient_norm",
                                        tf.linalg.global_norm(list(zip(*gradients))[0]))
        grad_updates = opt.apply_gradients(gradients, global_step=global_step if increment_global_step else None,
                                           name="train")
        return with_dependencies([grad_updates], loss)


TWINS = (
    ContribTwin("layers.optimize_loss", lambda: optimize_loss,
                "optimizer.compute_gradients + (tf.clip_by_global_norm) + apply_gradients(global_step) in variable "
                "scope OptimizeLoss, the train op the loss after the update, as TF 1.15 builds it"),
)
