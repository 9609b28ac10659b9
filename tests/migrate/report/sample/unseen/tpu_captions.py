"""Shape of a TPU show-and-tell input pipeline (tensorflow/tpu models/experimental/show_and_tell, Apache-2.0,
early 2019): `tf.strings.split` whose SparseTensor result is densified. Written for this test. Before the fix it
got no finding (TF2's returns a RaggedTensor; tf_upgrade_v2 appends `.to_sparse()`)."""
import tensorflow as tf


def caption_to_ids(caption, vocab_size):
  words = tf.strings.split(tf.reshape(caption, [1]), sep=" ")  # expect: TFM517
  words = tf.sparse_tensor_to_dense(words, default_value="")[0]  # expect: TFM513
  return tf.strings.to_hash_bucket(words, vocab_size)
