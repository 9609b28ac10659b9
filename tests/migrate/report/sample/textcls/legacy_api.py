"""The rest of the TF1 API a training script leans on: collections, gfile, RNN cells, session config.

Written in the idioms of NMT, face-recognition and speech toolkits of the TF1
era (collections for regularisation and EMA, `tf.gfile` for I/O, RNN cells
with `dynamic_rnn`, `ConfigProto` for GPU memory, positional feed dicts), with
TF2 spellings of the same objects as look-alikes that must stay silent.
"""
import os

import numpy as np
import tensorflow as tf

from textcls import flags_setup


def load_vocab(path):
    if not tf.gfile.Exists(path):  # expect: TFM515
        raise ValueError(path)
    with tf.gfile.GFile(path) as handle:  # expect: TFM513
        return [line.strip() for line in handle]


def load_vocab_tf2(path):
    with tf.io.gfile.GFile(path) as handle:
        return [line.strip() for line in handle]


def write_records(examples, path):
    with tf.python_io.TFRecordWriter(path) as writer:  # expect: TFM513
        for example in examples:
            writer.write(example.SerializeToString())
    return list(tf.python_io.tf_record_iterator(path))  # expect: TFM514


def encoder(inputs, lengths, num_units, num_layers):
    cells = [tf.nn.rnn_cell.LSTMCell(num_units) for _ in range(num_layers)]  # expect: TFM514
    cell = tf.nn.rnn_cell.MultiRNNCell(cells)  # expect: TFM514
    outputs, state = tf.nn.dynamic_rnn(cell, inputs, sequence_length=lengths, dtype=tf.float32)  # expect: TFM514
    fw = tf.contrib.rnn.GRUCell(num_units)  # expect: TFM501
    return outputs, state, fw


def bidirectional(inputs, lengths, num_units):
    forward = tf.nn.rnn_cell.GRUCell(num_units)  # expect: TFM514
    backward = tf.nn.rnn_cell.GRUCell(num_units)  # expect: TFM514
    (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(  # expect: TFM514
        forward, backward, inputs, sequence_length=lengths, dtype=tf.float32)
    return tf.concat([fw, bw], axis=-1)


def regularized_loss(loss, weight_decay):
    weights = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="encoder")  # expect: TFM514, TFM514
    reg = tf.add_n([tf.nn.l2_loss(w) for w in weights]) * weight_decay
    tf.add_to_collection("losses", reg)  # expect: TFM514
    return tf.add_n(tf.get_collection("losses") + [loss])  # expect: TFM514


def moving_averages(decay, step):
    ema = tf.train.ExponentialMovingAverage(decay, step)
    return ema.apply(tf.trainable_variables())  # expect: TFM514


def learning_rate(base, step, boundaries, values):
    decayed = tf.train.exponential_decay(base, step, 1000, 0.96, staircase=True)  # expect: TFM514
    stepped = tf.train.piecewise_constant(step, boundaries, values)  # expect: TFM514
    return tf.minimum(decayed, stepped)


def update_counters(counter, delta, table, ids, rows):
    inc = tf.assign_add(counter, delta)  # expect: TFM514
    upd = tf.scatter_update(table, ids, rows)  # expect: TFM514
    tf.compat.v1.assign(counter, 0)  # expect: TFM514
    counter.assign_add(delta)
    return inc, upd


def preprocess(image, label):
    image = tf.to_float(image) / 255.0  # expect: TFM514
    image = tf.image.resize_bilinear(image[None], [224, 224])[0]  # expect: TFM514
    noise = tf.random_normal(tf.shape(image), stddev=0.01)  # expect: TFM513
    noise2 = tf.random.normal(tf.shape(image), stddev=0.01)
    logits = tf.log(tf.nn.softmax(image))  # expect: TFM513
    safe = tf.math.log(tf.nn.softmax(image))
    return image + noise + noise2, label, tf.argmax(logits + safe, axis=-1)


def attention_scores(query, keys, hidden, keep_prob, loss, params):
    scores = tf.reduce_sum(query * keys, reduction_indices=[2], keep_dims=True)  # expect: TFM516, TFM516
    best = tf.argmax(scores, dimension=1)  # expect: TFM516
    hidden = tf.nn.dropout(hidden, keep_prob)  # expect: TFM516
    hidden = tf.nn.dropout(hidden, rate=1.0 - keep_prob)
    total = tf.reduce_mean(scores, axis=1, keepdims=True)
    total = tf.where(tf.is_nan(total), tf.zeros_like(total), total)  # expect: TFM517, TFM513
    tf.compat.v1.where(tf.math.is_nan(total), tf.zeros_like(total), total)
    grads = tf.gradients(loss, params, colocate_gradients_with_ops=True)  # expect: TFM516
    return best, hidden, total, grads


def session_config(gpu_fraction):
    gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=gpu_fraction, allow_growth=True)  # expect: TFM514
    return tf.ConfigProto(gpu_options=gpu_options, allow_soft_placement=True)  # expect: TFM514


def summaries(loss, images, weights):
    tf.summary.scalar("loss", loss)  # expect: TFM510
    tf.summary.image("inputs", images, max_outputs=4)  # expect: TFM510
    tf.summary.histogram("weights", weights, collections=["train"])  # expect: TFM510
    return tf.summary.merge_all()  # expect: TFM510


def summaries_tf2(writer, loss, step):
    with writer.as_default():
        tf.summary.scalar("loss", loss, step=step)


def evaluate(sess, model, batches):
    total = 0.0
    for images, labels in batches:
        feed = {model.images: images, model.labels: labels}
        total += sess.run(model.loss, feed)  # expect: TFM302
        total += sess.run(model.loss, {model.images: images, model.labels: labels})  # expect: TFM302
        total += model.accuracy.eval({model.images: images}, session=sess)  # expect: TFM302
        sess.run(model.reset_op, feed_dict=None)
    return total / max(len(batches), 1)


def input_structure(dataset):
    return dataset.output_types, dataset.output_shapes  # expect: TFM401, TFM401


def graph_surgery(checkpoint_dir):
    tf.reset_default_graph()  # expect: TFM514
    graph = tf.get_default_graph()  # expect: TFM514
    embeddings = graph.get_tensor_by_name("embeddings:0")
    tf.set_random_seed(flags_setup.FLAGS.seed if hasattr(flags_setup, "FLAGS") else 0)  # expect: TFM514
    path = os.path.join(checkpoint_dir, "model.ckpt")
    result = tf.py_func(np.sort, [embeddings], tf.float32)  # expect: TFM514
    return path, result
