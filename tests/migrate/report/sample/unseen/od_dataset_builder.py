"""A helper named like the Dataset method, and its call sites.

Short excerpts (Apache-2.0) of the Object Detection API as packaged in
object-detection 0.0.3 (github.com/tensorflow/models, research/object_detection):
builders/dataset_builder.py and legacy/train.py. Before the fix each call of
`dataset_builder.make_initializable_iterator(dataset)` (15 in that package)
was reported as the Dataset method; the helper's own body holds the real one.
"""
import tensorflow as tf


def make_initializable_iterator(dataset):
  """Creates an iterator, and initializes tables."""
  iterator = dataset.make_initializable_iterator()  # expect: TFM401
  tf.add_to_collection(tf.GraphKeys.TABLE_INITIALIZERS, iterator.initializer)  # expect: TFM402
  return iterator
