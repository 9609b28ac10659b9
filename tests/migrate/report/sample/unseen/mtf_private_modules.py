"""Private-module spellings of the Estimator and flags APIs.

Short excerpts (Apache-2.0) of mesh_tensorflow 0.1.21 (github.com/tensorflow/mesh):
mesh_tensorflow/experimental/model_executor.py and mesh_tensorflow/transformer/utils.py.
Before the fix: no finding on any `tpu_estimator.` / `tpu_config.` line, and one
TFM502 per `flags.DEFINE_*` instead of one on the import.
"""
import tensorflow.compat.v1 as tf
from tensorflow.compat.v1 import estimator as tf_estimator
from tensorflow.contrib import tpu  # expect: TFM501
from tensorflow.python.platform import flags  # expect: TFM502
from tensorflow.python.tpu import tpu_config
from tensorflow.python.tpu import tpu_estimator

FLAGS = flags.FLAGS

flags.DEFINE_boolean('use_tpu', True, 'Use TPU or GPU.')
flags.DEFINE_float('lr', 0.003, 'Learning rate.')


class _CkptLoaderHook(tf_estimator.SessionRunHook):  # expect: TFM201
  """Load checkpoint right after the session started."""

  def after_create_session(self, session, coord):
    saver_collection = tf.get_collection(tf.GraphKeys.SAVERS)  # expect: TFM514, TFM514
    if saver_collection:
      saver = saver_collection[0]
      check_point = tf.train.latest_checkpoint(FLAGS.checkpoint_dir)
      if check_point:
        saver.restore(session, check_point)


def train_spec(use_tpu, tf_loss, train_op, training_hooks):
  if use_tpu:
    return tpu_estimator.TPUEstimatorSpec(  # expect: TFM102
        mode=tf_estimator.ModeKeys.TRAIN, loss=tf_loss, train_op=train_op,
        training_hooks=training_hooks)
  return tf_estimator.EstimatorSpec(  # expect: TFM102
      tf_estimator.ModeKeys.TRAIN, loss=tf_loss, train_op=train_op,
      training_chief_hooks=training_hooks)


def get_estimator(model_fn, model_dir, cluster, batch_size, iterations_per_loop):
  my_tpu_config = tpu_config.TPUConfig(
      iterations_per_loop=iterations_per_loop,
      per_host_input_for_training=tpu_config.InputPipelineConfig.BROADCAST)
  run_config = tpu_config.RunConfig(  # expect: TFM104
      cluster=cluster, model_dir=model_dir, tpu_config=my_tpu_config)
  return tpu_estimator.TPUEstimator(  # expect: TFM101
      model_fn=model_fn, config=run_config, train_batch_size=batch_size,
      use_tpu=FLAGS.use_tpu)
