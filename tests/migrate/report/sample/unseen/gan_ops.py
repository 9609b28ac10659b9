"""Shape of a DCGAN-style `ops.py` (carpedm20/DCGAN-tensorflow, MIT): the summary ops bound to module-level
names inside a try/except that picks the pre-1.0 spelling or the TF 1.x one, the names star-imported and called
without a step by the model module (`gan_model.py`). Written for this test. Before the fix the three bindings
got no finding: an op that is not called was never judged (tf_upgrade_v2 rewrites them to `tf.compat.v1`)."""
import tensorflow as tf

try:
  image_summary = tf.image_summary
  scalar_summary = tf.scalar_summary
  merge_summary = tf.merge_summary
except AttributeError:
  image_summary = tf.summary.image  # expect: TFM510
  scalar_summary = tf.summary.scalar  # expect: TFM510
  histogram_summary = tf.summary.histogram  # expect: TFM510
  merge_summary = tf.summary.merge  # expect: TFM510
  SummaryWriter = tf.summary.FileWriter  # expect: TFM510
