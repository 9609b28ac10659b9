"""Shape of tensorpack-style example models (tensorpack/tensorpack examples/ResNet/cifar10-preact18-mixup.py and
examples/basics/cifar-convnet.py, Apache-2.0): an image summary whose third positional argument is TF1's
`max_outputs`, and a softmax cross-entropy on mixed labels. Written for this test. Before the fix neither got a
finding: the int literal was taken for TF2's step, and TF2's `softmax_cross_entropy_with_logits` back-propagating
into `labels` (tf_upgrade_v2 wraps them in `tf.stop_gradient`) was not told."""
import tensorflow as tf


def build_graph(image, label, logits, alpha):
  image = tf.cast(image, tf.float32) * (1.0 / 255)
  tf.summary.image("train_image", image, 10)  # expect: TFM510
  mixed = alpha * label + (1 - alpha) * tf.reverse(label, [0])
  ce_cost = tf.nn.softmax_cross_entropy_with_logits(labels=mixed, logits=logits)  # expect: TFM517
  hard_cost = tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(tf.argmax(label, 1), 10), logits=logits)
  wrong = tf.to_float(tf.logical_not(tf.nn.in_top_k(logits, tf.argmax(label, 1), 1)))  # expect: TFM516
  return tf.reduce_mean(ce_cost) + tf.reduce_mean(hard_cost), wrong
