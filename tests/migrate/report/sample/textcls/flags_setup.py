"""Flags the way large TF1 scripts declare them: many DEFINEs, many reads."""
import tensorflow as tf

flags = tf.flags  # expect: TFM502

FLAGS = flags.FLAGS

flags.DEFINE_string("data_dir", None, "Input data directory.")
flags.DEFINE_string("output_dir", None, "Where checkpoints go.")
flags.DEFINE_integer("max_seq_length", 128, "Maximum sequence length.")
flags.DEFINE_integer("train_batch_size", 32, "Batch size for training.")
flags.DEFINE_float("learning_rate", 5e-5, "Initial learning rate.")
flags.DEFINE_bool("use_tpu", False, "Whether to use TPU.")
flags.DEFINE_integer("save_checkpoints_steps", 1000, "How often to save.")
flags.DEFINE_integer("iterations_per_loop", 1000, "Steps per TPU loop.")


def batch_settings():
    seq_len = FLAGS.max_seq_length
    batch = FLAGS.train_batch_size
    tokens = seq_len * batch
    return {"seq_len": seq_len, "tokens": tokens, "lr": FLAGS.learning_rate}
