"""Shape of tensorpack's grouped convolution (tensorpack/tensorpack tensorpack/models/conv2d.py, Apache-2.0):
`tf.nn.conv2d` called with `**kwargs` the wrapper builds, which could hold TF1's `use_cudnn_on_gpu`. Written for
this test. Before the fix the call got no finding (tf_upgrade_v2 warns on it)."""
import tensorflow as tf


def grouped_conv2d(inputs, kernel, stride, padding, split, data_format="NHWC"):
  kwargs = dict(data_format=data_format)
  inputs = tf.split(inputs, split, 3)
  kernels = tf.split(kernel, split, 3)
  outputs = [tf.nn.conv2d(i, k, stride, padding.upper(), **kwargs)  # expect: TFM516
             for i, k in zip(inputs, kernels)]
  return tf.concat(outputs, 3)


def dropout(x, keep_prob, **kwargs):
  return tf.nn.dropout(x, keep_prob, **kwargs)  # expect: TFM516
