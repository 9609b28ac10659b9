"""A hand-written session training loop with summaries and a Saver."""
import tensorflow.compat.v1 as tf
from tensorflow.compat.v1 import logging  # expect: TFM503

from textcls.input_pipeline import placeholder_pipeline

tf.disable_v2_behavior()  # expect: TFM514


def build(images, labels):
    iterator, feeds = placeholder_pipeline(images, labels, 32)
    features, targets = iterator.get_next()
    logits = tf.layers.Dense(10)(tf.layers.flatten(features))  # expect: TFM507, TFM507
    loss = tf.losses.softmax_cross_entropy(tf.one_hot(targets, 10), logits)  # expect: TFM508
    train_op = tf.train.MomentumOptimizer(0.01, 0.9).minimize(loss, global_step=tf.train.get_or_create_global_step())  # expect: TFM504, TFM511
    tf.summary.scalar("loss", loss)  # expect: TFM510
    return iterator, feeds, loss, train_op


def train(images, labels, log_dir, steps):
    iterator, feeds, loss, train_op = build(images, labels)
    merged = tf.summary.merge_all()  # expect: TFM510
    saver = tf.train.Saver(max_to_keep=3)  # expect: TFM505
    with tf.Session() as sess:  # expect: TFM303
        writer = tf.summary.FileWriter(log_dir, sess.graph)  # expect: TFM510
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])  # expect: TFM306, TFM306
        sess.run(iterator.initializer, feed_dict=feeds)  # expect: TFM402, TFM302
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)  # expect: TFM305
        for step in range(steps):
            _, value, summary = sess.run([train_op, loss, merged])
            writer.add_summary(summary, step)
            if step % 100 == 0:
                logging.info("step %d loss %f", step, value)
                saver.save(sess, log_dir + "/model.ckpt", global_step=step)
        coord.request_stop()
        coord.join(threads)


def monitored(train_op, checkpoint_dir):
    hooks = [tf.train.StopAtStepHook(last_step=1000)]  # expect: TFM202
    with tf.train.MonitoredTrainingSession(checkpoint_dir=checkpoint_dir, hooks=hooks) as sess:  # expect: TFM304
        while not sess.should_stop():
            sess.run(train_op)
