"""Shape of a DCGAN-style `model.py` (carpedm20/DCGAN-tensorflow, MIT) using the summary names `gan_ops.py`
binds, and a second module binding one of its own with TF2's step: a look-alike. Written for this test."""
import tensorflow as tf

from unseen.gan_ops import *


def build_summaries(z, fake, d_loss):
  z_sum = histogram_summary("z", z)
  fake_sum = image_summary("G", fake)
  loss_sum = scalar_summary("d_loss", d_loss)
  return merge_summary([z_sum, fake_sum, loss_sum])


def log_eager(writer, loss, step):
  write_scalar = tf.summary.scalar
  with writer.as_default():
    write_scalar("loss", loss, step=step)
