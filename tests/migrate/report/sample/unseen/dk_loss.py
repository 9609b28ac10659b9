"""Shape of a darkflow-style loss (thtrieu/darkflow darkflow/net/vanilla/train.py, GPL-3.0): TF 0.x's
cross-entropy called with `(logits, labels)` by position, which TF2's `(labels, logits)` swaps. Written for this
test. Before the fix it got no finding (tf_upgrade_v2 spells the keywords out)."""
import tensorflow as tf


def loss(net_out, y, loss_type):
  if loss_type == "softmax":
    loss = tf.nn.softmax_cross_entropy_with_logits(net_out, y)  # expect: TFM517
  else:
    loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=net_out)
  with tf.Session() as sess:  # expect: TFM303
    return sess, tf.reduce_mean(loss)
