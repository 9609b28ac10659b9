"""Input pipelines of the TF1 era: placeholders fed into initializable iterators, queue runners."""
import numpy as np
import tensorflow as tf
from tensorflow.compat.v1 import placeholder


def placeholder_pipeline(images, labels, batch_size):
    images_placeholder = tf.placeholder(tf.float32, images.shape)  # expect: TFM301
    labels_placeholder = placeholder(tf.int64, labels.shape)  # expect: TFM301
    dataset = tf.data.Dataset.from_tensor_slices((images_placeholder, labels_placeholder)).batch(batch_size)
    iterator = dataset.make_initializable_iterator()  # expect: TFM401
    return iterator, {images_placeholder: images, labels_placeholder: labels}


def in_memory_pipeline():
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    features = np.asarray(x_train, dtype=np.float32) / 255.0
    dataset = tf.data.Dataset.from_tensor_slices((features, y_train))  # expect: TFM403
    it = tf.compat.v1.data.make_one_shot_iterator(dataset)  # expect: TFM401
    return it.get_next()


def start(sess, iterator, feeds):
    sess.run(iterator.initializer, feed_dict=feeds)  # expect: TFM402, TFM302


class Input:
    def __init__(self, dataset):
        self._iterator = tf.data.Iterator.from_structure(dataset.output_types, dataset.output_shapes)  # expect: TFM401, TFM401, TFM401
        self.init_op = self._iterator.make_initializer(dataset)

    def reset(self, sess):
        sess.run(self._iterator.initializer)  # expect: TFM402


def queue_pipeline(filenames, batch_size):
    filename_queue = tf.train.string_input_producer(filenames)  # expect: TFM305
    reader = tf.TFRecordReader()  # expect: TFM514
    _, serialized = reader.read(filename_queue)
    queue = tf.queue.FIFOQueue(capacity=100, dtypes=[tf.string])  # expect: TFM305
    enqueue = queue.enqueue([serialized])
    tf.train.queue_runner.add_queue_runner(tf.train.queue_runner.QueueRunner(queue, [enqueue]))  # expect: TFM305, TFM305
    return tf.train.shuffle_batch([queue.dequeue()], batch_size=batch_size, capacity=1000, min_after_dequeue=100)  # expect: TFM305
