"""Shape of magenta-style export and evaluation code (magenta/magenta coconet/lib_saved_model.py and
image_stylization/image_stylization_evaluate.py, Apache-2.0, early 2019). Written for this test. Before the
fix `tf.saved_model.loader.load` got no finding (canonically it is `tf.saved_model.load`, which TFM514 was not
dispatched for and TFM517 left to it), nor did a summary op given TF1's `collections` by position."""
import tensorflow as tf


def load_saved_model(sess, path, tags):
  tf.saved_model.loader.load(sess, tags, path)  # expect: TFM514


def summaries(names_values):
  for name, value in names_values.items():
    summary_op = tf.summary.scalar(name, value, [])  # expect: TFM510
    yield summary_op
