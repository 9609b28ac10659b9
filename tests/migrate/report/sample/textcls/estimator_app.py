"""Estimator applications: canned estimators, train_and_evaluate, contrib.learn, early stopping."""
import tensorflow as tf
from tensorflow.contrib.learn.python.learn import learn_runner  # expect: TFM501, TFM107
from tensorflow_estimator.python.estimator.canned import dnn


def canned(feature_columns, model_dir):
    classifier = tf.estimator.DNNClassifier(hidden_units=[64, 32], feature_columns=feature_columns,  # expect: TFM106
                                            n_classes=3, model_dir=model_dir)
    regressor = dnn.DNNRegressor(hidden_units=[16], feature_columns=feature_columns)  # expect: TFM106
    return classifier, regressor


def model_fn(features, labels, mode, params):  # expect: TFM103
    logits = tf.compat.v1.layers.dense(features["x"], 10)  # expect: TFM507
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, logits)  # expect: TFM508
    optimizer = tf.compat.v1.train.GradientDescentOptimizer(params["learning_rate"])  # expect: TFM504
    train_op = optimizer.minimize(loss, global_step=tf.compat.v1.train.get_global_step())  # expect: TFM511
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)  # expect: TFM102


def run(train_input_fn, eval_input_fn, model_dir):
    config = tf.estimator.RunConfig(model_dir=model_dir, save_summary_steps=100)  # expect: TFM104
    estimator = tf.estimator.Estimator(model_fn=model_fn, config=config, params={"learning_rate": 0.1})  # expect: TFM101
    early_stop = tf.estimator.experimental.stop_if_no_decrease_hook(estimator, "loss", max_steps_without_decrease=1000)  # expect: TFM202
    train_spec = tf.estimator.TrainSpec(train_input_fn, max_steps=10000, hooks=[early_stop])  # expect: TFM105
    eval_spec = tf.estimator.EvalSpec(eval_input_fn, steps=100, throttle_secs=60)  # expect: TFM105
    tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)  # expect: TFM105


def experiment_main(experiment_fn, output_dir):
    learn_runner.run(experiment_fn=experiment_fn, output_dir=output_dir)
