"""Shape of a graph-convolution `layers.py` (tkipf/gcn gcn/layers.py, MIT): TensorFlow imported here and
star-exported to `gcn_models.py`. Written for this test."""
import tensorflow as tf

flags = tf.app.flags  # expect: TFM502
FLAGS = flags.FLAGS


def sparse_dropout(x, keep_prob, noise_shape):
  random_tensor = keep_prob + tf.random_uniform(noise_shape)  # expect: TFM513
  dropout_mask = tf.cast(tf.floor(random_tensor), dtype=tf.bool)
  return tf.sparse_retain(x, dropout_mask) * (1. / keep_prob)  # expect: TFM513
