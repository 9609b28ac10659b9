"""Shape of a graph-convolution `models.py` (tkipf/gcn gcn/models.py, MIT): `tf` is bound only by
`from gcn.layers import *`. Written for this test. Before the fix the file got no finding at all: `tf` was
unbound, so none of its TF1 calls resolved (tf_upgrade_v2 changed 7 of its lines)."""
from unseen.gcn_layers import *

flags = tf.app.flags  # expect: TFM502
FLAGS = flags.FLAGS


class Model(object):
  def __init__(self, name):
    self.name = name
    self.vars = {}

  def build(self):
    with tf.variable_scope(self.name):  # expect: TFM506
      self._build()
    variables = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope=self.name)  # expect: TFM514, TFM514
    self.vars = {var.name: var for var in variables}
    self.optimizer = tf.train.AdamOptimizer(learning_rate=FLAGS.learning_rate)  # expect: TFM504

  def _build(self):
    raise NotImplementedError

  def save(self, sess):
    saver = tf.train.Saver(self.vars)  # expect: TFM505
    return saver.save(sess, "tmp/%s.ckpt" % self.name)
