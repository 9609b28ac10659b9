"""A BERT-style fine-tuning script: flags from another module, TPUEstimator through tf.contrib."""
import collections
import os

import tensorflow as tf

from textcls import optimization
from textcls.flags_setup import FLAGS
from textcls.hooks import get_train_hooks


class InputFeatures(object):
    def __init__(self, input_ids, label_id):
        self.input_ids = input_ids
        self.label_id = label_id


def file_based_input_fn_builder(input_file, seq_length, is_training):
    name_to_features = {
        "input_ids": tf.FixedLenFeature([seq_length], tf.int64),  # expect: TFM513
        "label_ids": tf.FixedLenFeature([], tf.int64),  # expect: TFM513
    }

    def input_fn(params):
        d = tf.data.TFRecordDataset(input_file)
        if is_training:
            d = d.repeat().shuffle(buffer_size=100)
        d = d.apply(tf.contrib.data.map_and_batch(  # expect: TFM501
            lambda record: tf.parse_single_example(record, name_to_features),  # expect: TFM515
            batch_size=params["batch_size"]))
        return d

    return input_fn


def model_fn_builder(num_labels, learning_rate, num_train_steps, use_tpu):
    def model_fn(features, labels, mode, params):  # expect: TFM103
        input_ids = features["input_ids"]
        is_training = (mode == tf.estimator.ModeKeys.TRAIN)
        with tf.variable_scope("output"):  # expect: TFM506
            logits = tf.layers.dense(tf.cast(input_ids, tf.float32), num_labels)  # expect: TFM507
        loss = tf.losses.sparse_softmax_cross_entropy(labels=features["label_ids"], logits=logits)  # expect: TFM508
        if is_training:
            train_op = optimization.create_optimizer(loss, learning_rate, num_train_steps, use_tpu)
            return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)  # expect: TFM102, TFM501
        predictions = tf.argmax(logits, axis=-1)
        accuracy = tf.metrics.accuracy(labels=features["label_ids"], predictions=predictions)  # expect: TFM509
        return tf.estimator.tpu.TPUEstimatorSpec(mode=mode, loss=loss, eval_metrics={"accuracy": accuracy})  # expect: TFM102

    return model_fn


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)  # expect: TFM503, TFM503
    tf.gfile.MakeDirs(FLAGS.output_dir)  # expect: TFM515
    seq_length = FLAGS.max_seq_length
    tpu_cluster_resolver = None
    is_per_host = tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2  # expect: TFM501
    run_config = tf.contrib.tpu.RunConfig(  # expect: TFM104, TFM501
        cluster=tpu_cluster_resolver,
        model_dir=FLAGS.output_dir,
        save_checkpoints_steps=FLAGS.save_checkpoints_steps,
        tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=FLAGS.iterations_per_loop,  # expect: TFM501
                                            per_host_input_for_training=is_per_host))
    model_fn = model_fn_builder(2, FLAGS.learning_rate, 1000, FLAGS.use_tpu)
    estimator = tf.contrib.tpu.TPUEstimator(  # expect: TFM101, TFM501
        use_tpu=FLAGS.use_tpu, model_fn=model_fn, config=run_config, train_batch_size=FLAGS.train_batch_size)
    train_file = os.path.join(FLAGS.output_dir, "train.tf_record")
    train_input_fn = file_based_input_fn_builder(train_file, seq_length, is_training=True)
    hooks = get_train_hooks(["examplespersecondhook"], FLAGS.train_batch_size, {})
    estimator.train(input_fn=train_input_fn, max_steps=1000, hooks=hooks)
    result = estimator.evaluate(input_fn=train_input_fn, steps=10)
    for key in sorted(result.keys()):
        tf.logging.info("  %s = %s", key, str(result[key]))  # expect: TFM503
    counts = collections.Counter(result)
    return counts


if __name__ == "__main__":
    tf.app.run()  # expect: TFM502
