"""Shape of a baselines-style optimizer subclass (openai/baselines common/mpi_adam_optimizer.py, MIT): methods of
the TF1 base called explicitly, and `tf.div` for a mean. Written for this test. Before the fix the base's methods
and `tf.div` got "rewrite it with TF2 APIs" as their only advice."""
import numpy as np
import tensorflow as tf


class MpiAdamOptimizer(tf.train.AdamOptimizer):  # expect: TFM504
  def __init__(self, comm, **kwargs):
    self.comm = comm
    tf.train.AdamOptimizer.__init__(self, **kwargs)  # expect: TFM514

  def compute_gradients(self, loss, var_list, **kwargs):
    grads_and_vars = tf.train.AdamOptimizer.compute_gradients(self, loss, var_list, **kwargs)  # expect: TFM514
    grads_and_vars = [(g, v) for g, v in grads_and_vars if g is not None]
    flat_grad = tf.concat([tf.reshape(g, (-1,)) for g, v in grads_and_vars], axis=0)
    return flat_grad, np.prod([int(v.shape[0]) for _, v in grads_and_vars])


def mean_over_workers(total, size):
  return tf.div(total, size)  # expect: TFM514
