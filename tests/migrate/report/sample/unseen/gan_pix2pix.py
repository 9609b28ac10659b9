"""Shape of a pix2pix-style generator and losses (affinelayer/pix2pix-tensorflow pix2pix.py, MIT; tensorpack's
DQN and PennTreebank examples, Apache-2.0), written for this test. Before the fix `keep_prob=` of
`tf.nn.dropout` got "drop it, or do what it did another way" (TF2 takes `rate=1 - keep_prob`), and
`tf.losses.mean_squared_error` / `tf.losses.Reduction` / `tf.assert_positive` / `tf.train.Supervisor` got no
advice but "check the call against TF2's documentation" / "rewrite it with TF2 APIs"."""
import tensorflow as tf


def decoder_layer(output, dropout):
  output = tf.nn.dropout(output, keep_prob=1 - dropout)  # expect: TFM516
  return tf.nn.relu(output)


def q_loss(target, predicted):
  tf.summary.histogram("predicted", predicted, step=0)
  return tf.losses.mean_squared_error(target, predicted)  # expect: TFM517


def huber(target, predicted):
  return tf.losses.huber_loss(target, predicted, reduction=tf.losses.Reduction.MEAN)  # expect: TFM508


def epoch_size(batch_len, num_steps):
  assertion = tf.assert_positive(  # expect: TFM514
      batch_len // num_steps, message="epoch_size == 0, decrease batch_size or num_steps")
  return assertion


def supervised(logdir):
  return tf.train.Supervisor(logdir=logdir)  # expect: TFM514
