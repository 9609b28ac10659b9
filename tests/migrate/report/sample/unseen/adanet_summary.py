"""Shape of adanet's scoped summary (tensorflow/adanet adanet/core/summary.py, Apache-2.0, early 2019): the TF1
summary ops kept in attributes and called with TF1's `family=`, and `tf.test.mock` in its tests. Written for this
test. Before the fix neither the attribute bindings nor `tf.test.mock` got a finding."""
import tensorflow as tf

mock = tf.test.mock  # expect: TFM514


class ScopedSummary(object):
  def __init__(self, scope=None):
    self._scope = scope
    self._actual_summary_scalar_fn = tf.summary.scalar  # expect: TFM510
    self._actual_summary_image_fn = tf.summary.image  # expect: TFM510

  def scalar(self, name, tensor, family=None):
    return self._actual_summary_scalar_fn(name, tensor, family=family)

  def image(self, name, tensor, max_outputs=3, family=None):
    return self._actual_summary_image_fn(name, tensor, max_outputs, family=family)
