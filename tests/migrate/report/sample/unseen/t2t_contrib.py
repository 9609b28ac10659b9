"""Wrapper functions that return a tf.contrib module on the TF1 path only.

Short excerpt (Apache-2.0) of tensor2tensor 1.15.7 (github.com/tensorflow/tensor2tensor):
tensor2tensor/utils/contrib.py. Before the fix only a wrapper whose *last*
statement returned the module counted, so `opt()` and `learn()` (a `DummyModule`
returned last, for TF2) hid every `contrib.opt().X` / `contrib.learn().X` call.
"""
import tensorflow.compat.v1 as tf

try:
  from tensorflow.contrib import slim as tf_slim  # expect: TFM501
  is_tf2 = False
except:  # noqa: E722
  import tf_slim
  is_tf2 = True


class DummyModule(object):

  def __init__(self, **kw):
    for k, v in kw.items():
      setattr(self, k, v)


def opt():
  if not is_tf2:
    from tensorflow.contrib import opt as contrib_opt  # expect: TFM501
    return contrib_opt
  return DummyModule(LazyAdamOptimizer=None)


def learn():
  """Return tf.contrib.learn module or dummy version."""
  if not is_tf2:
    from tensorflow.contrib import learn as contrib_learn  # expect: TFM501
    return contrib_learn
  return DummyModule(RunConfig=tf.estimator.RunConfig)  # expect: TFM104
