"""A tensor2tensor-style trainer: tf.contrib through wrapper functions, string hyper-parameters."""
import tensorflow as tf

from textcls import contrib
from textcls.hooks import StopAfterHook


def initializer(hparams):
    """Maps the `hparams.initializer` string to an initializer (not an iterator)."""
    if not hparams.initializer or hparams.initializer == "orthogonal":
        return tf.orthogonal_initializer(gain=hparams.initializer_gain)  # expect: TFM514
    if hparams.initializer == "uniform":
        max_val = 0.1 * hparams.initializer_gain
        return tf.random_uniform_initializer(-max_val, max_val)  # expect: TFM517
    raise ValueError("Unrecognized initializer: %s" % hparams.initializer)


def body(features, hparams):
    with contrib.slim().arg_scope([contrib.slim().conv2d], padding="SAME"):  # expect: TFM501, TFM501
        net = contrib.slim().conv2d(features, hparams.hidden_size, [3, 3])  # expect: TFM501
    layer = tf.keras.layers.Dense(hparams.hidden_size, kernel_initializer=initializer(hparams))
    return layer(net)


def create_estimator(model_fn, run_config, hparams, use_tpu):
    if use_tpu:
        return contrib.tpu().TPUEstimator(model_fn=model_fn, config=run_config, use_tpu=True,  # expect: TFM101, TFM501
                                          train_batch_size=hparams.batch_size)
    return tf.estimator.Estimator(model_fn=model_fn, config=run_config)  # expect: TFM101


def create_experiment(estimator, train_input_fn, eval_input_fn, hparams):
    return contrib.learn().Experiment(estimator=estimator, train_input_fn=train_input_fn,  # expect: TFM107, TFM501
                                      eval_input_fn=eval_input_fn, train_steps=hparams.train_steps)


def train(estimator, input_fn, hparams):
    hooks = [StopAfterHook(hparams.train_steps)]  # expect: TFM208
    estimator.train(input_fn, hooks=hooks)
