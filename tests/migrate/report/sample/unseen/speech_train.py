"""Shape of a DeepSpeech-style training module (mozilla/DeepSpeech v0.5.1, MPL-2.0): CTC loss called with TF1's
keywords, a frozen graph read back for export. Written for this test. Before the fix the report told users to
drop `inputs=` and `sequence_length=` (TF2's `tf.nn.ctc_loss` is another function: TF1's `inputs` is its
`logits`), and `tf.GraphDef` got no advice but "rewrite it with TF2 APIs"."""
import tensorflow as tf


def calculate_mean_edit_distance_and_loss(logits, batch_y, batch_seq_len):
  total_loss = tf.nn.ctc_loss(labels=batch_y, inputs=logits, sequence_length=batch_seq_len)  # expect: TFM516, TFM516
  return tf.reduce_mean(total_loss)


def ctc_loss_kept(logits, batch_y, batch_seq_len):
  return tf.compat.v1.nn.ctc_loss(labels=batch_y, inputs=logits, sequence_length=batch_seq_len)


def load_graph_for_evaluation(path):
  graph_def = tf.GraphDef()  # expect: TFM514
  with open(path, "rb") as fin:
    graph_def.ParseFromString(fin.read())
  return graph_def
