"""A BERT-style optimizer module: a custom tf.train.Optimizer subclass and a factory."""
import re

import tensorflow as tf


def create_optimizer(loss, init_lr, num_train_steps, use_tpu):
    global_step = tf.train.get_or_create_global_step()  # expect: TFM511
    learning_rate = tf.train.polynomial_decay(init_lr, global_step, num_train_steps, end_learning_rate=0.0)  # expect: TFM514
    optimizer = AdamWeightDecayOptimizer(learning_rate=learning_rate, weight_decay_rate=0.01)
    if use_tpu:
        optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)  # expect: TFM501, TFM512
    tvars = tf.trainable_variables()  # expect: TFM514
    grads = tf.gradients(loss, tvars)
    (grads, _) = tf.clip_by_global_norm(grads, clip_norm=1.0)
    train_op = optimizer.apply_gradients(zip(grads, tvars), global_step=global_step)
    return tf.group(train_op, [global_step.assign(global_step + 1)])


class AdamWeightDecayOptimizer(tf.train.Optimizer):  # expect: TFM504
    def __init__(self, learning_rate, weight_decay_rate=0.0, name="AdamWeightDecayOptimizer"):
        super(AdamWeightDecayOptimizer, self).__init__(False, name)
        self.learning_rate = learning_rate
        self.weight_decay_rate = weight_decay_rate

    def _get_variable_name(self, param_name):
        m = re.match("^(.*):\\d+$", param_name)
        return m.group(1) if m is not None else param_name

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        assignments = []
        for (grad, param) in grads_and_vars:
            name = self._get_variable_name(param.name)
            m = tf.get_variable(name=name + "/adam_m", shape=param.shape.as_list(), trainable=False,  # expect: TFM506
                                initializer=tf.zeros_initializer())  # expect: TFM517
            assignments.extend([param.assign(param - self.learning_rate * m)])
        return tf.group(*assignments, name=name)


def tpu_friendly(loss):
    opt = tf.compat.v1.tpu.CrossShardOptimizer(tf.compat.v1.train.AdamOptimizer(1e-3))  # expect: TFM512, TFM504
    return opt.minimize(loss)
