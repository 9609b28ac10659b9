"""Call sites of the wrappers in t2t_contrib.py.

Short excerpts (Apache-2.0) of tensor2tensor 1.15.7: tensor2tensor/utils/optimize.py
and tensor2tensor/utils/trainer_lib.py.
"""
import tensorflow.compat.v1 as tf

from unseen import t2t_contrib as contrib


def adam(learning_rate, hparams):
  return contrib.opt().LazyAdamOptimizer(  # expect: TFM501
      learning_rate,
      beta1=hparams.optimizer_adam_beta1,
      beta2=hparams.optimizer_adam_beta2,
      epsilon=hparams.optimizer_adam_epsilon)


def create_run_config(run_config_args, use_validation_monitor, eval_hooks, train_hooks):
  run_config_cls = contrib.learn().RunConfig  # expect: TFM104, TFM501
  if use_validation_monitor:
    tf.logging.info("Using ValidationMonitor")  # expect: TFM503
    train_hooks.append(
        contrib.learn().monitors.ValidationMonitor(hooks=eval_hooks))  # expect: TFM501
  return run_config_cls(**run_config_args)
