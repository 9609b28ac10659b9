"""Shape of a baselines-style actor-critic train step (openai/baselines a2c/a2c.py, MIT): the feed dict built in a
name (`td_map`), extended, then passed to `sess.run` by position. Written for this test. Before the fix only a
dict display or a name saying `feed` was taken for a positional feed, so the five such calls of baselines got no
finding."""
import tensorflow as tf


class Model(object):
  def __init__(self, sess, train_model, A, ADV, R, LR, pg_loss, vf_loss, entropy, _train):
    def train(obs, states, rewards, masks, actions, values, cur_lr):
      advs = rewards - values
      td_map = {train_model.X: obs, A: actions, ADV: advs, R: rewards, LR: cur_lr}
      if states is not None:
        td_map[train_model.S] = states
        td_map[train_model.M] = masks
      policy_loss, value_loss, policy_entropy, _ = sess.run(
          [pg_loss, vf_loss, entropy, _train],
          td_map  # expect: TFM302
      )
      return policy_loss, value_loss, policy_entropy

    def step_options(level):
      options = tf.RunOptions(trace_level=level)  # expect: TFM514
      return sess.run(_train, options)

    self.train = train
    self.step_options = step_options
