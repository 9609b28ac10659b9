"""Where each `tf.contrib` module (or member) went in TF2, for TFM501's messages (`migrate.report.rules.contrib`).

Keyed by the name after `tensorflow.contrib.`, the longest key that starts the name winning
(`framework.nest` before `framework`); a module with no entry gets the general advice.
"""
from __future__ import annotations

HOMES: dict[str, str] = {
    "layers": "Keras layers (`keras.layers.Dense`, `keras.layers.Conv2D`, `keras.layers.BatchNormalization`, "
              "`keras.layers.LayerNormalization`), `keras.regularizers.L2`, `keras.initializers.VarianceScaling`",
    "layers.xavier_initializer": "`keras.initializers.GlorotUniform` (`GlorotNormal` for `uniform=False`)",
    "layers.variance_scaling_initializer": "`keras.initializers.VarianceScaling` (TF1's `factor` is its `scale`)",
    "layers.l2_regularizer": "`keras.regularizers.L2(scale / 2)` (TF1's penalty is `scale * tf.nn.l2_loss(w)`, "
                             "half the sum of squares; Keras' is `l2` times the whole sum)",
    "layers.l1_regularizer": "`keras.regularizers.L1`",
    "layers.layer_norm": "`keras.layers.LayerNormalization`",
    "slim": "Keras layers and `keras.Model`; the separate `tf-slim` package (`import tf_slim as slim`) keeps slim",
    "tpu": "`tf.distribute.TPUStrategy` over a `tf.distribute.cluster_resolver.TPUClusterResolver`, with `model.fit`",
    "cluster_resolver": "`tf.distribute.cluster_resolver` (`TPUClusterResolver`, `TFConfigClusterResolver`)",
    "distribute": "`tf.distribute` (`tf.distribute.MirroredStrategy`, `tf.distribute.MultiWorkerMirroredStrategy`)",
    "framework": "split up: `tf.nest`, `tf.sort` / `tf.argsort`, `tf.get_static_value`; `arg_scope` and the "
                 "variable helpers have none (pass arguments explicitly; Keras layers own their variables)",
    "framework.nest": "`tf.nest` (the same functions)",
    "framework.sort": "`tf.sort`",
    "framework.argsort": "`tf.argsort`",
    "util.constant_value": "`tf.get_static_value`",
    "summary": "TF2's `tf.summary`, which contrib.summary previewed: `tf.summary.create_file_writer`, "
               "`tf.summary.scalar(name, value, step=step)`, `tf.summary.record_if`",
    "rnn": "Keras RNN layers: `keras.layers.LSTMCell` / `keras.layers.GRUCell` in `keras.layers.RNN`, "
           "`keras.layers.StackedRNNCells`, `keras.layers.Bidirectional`",
    "cudnn_rnn": "`keras.layers.LSTM` / `keras.layers.GRU`, which run cuDNN's kernel on GPU with their default arguments",
    "seq2seq": "Keras attention layers (`keras.layers.Attention`, `keras.layers.MultiHeadAttention`) and a decoding "
               "loop of your own (TensorFlow Addons' `tfa.seq2seq`, now unmaintained, kept the old API)",
    "training": "`tf.data` for input (`tf.data.Dataset.bucket_by_sequence_length`), `tf.train.checkpoints_iterator` to "
                "wait for checkpoints, a dict or dataclass for `HParams`",
    "learn": "`keras.Model` trained with `fit`/`evaluate`/`predict` (see modern/training.py)",
    "data": "`tf.data`: `map_and_batch` is `map(..., num_parallel_calls=...)` then `batch`, `parallel_interleave` is "
            "`interleave(..., num_parallel_calls=...)`, the rest `tf.data.experimental`",
    "checkpoint": "`tf.train.Checkpoint` and `tf.train.CheckpointManager` (a `tf.Module` tracks what it holds)",
    "eager": "TF2 is eager by default: `tf.GradientTape` for gradients, `tf.Variable`, datasets iterated directly",
    "tfprof": "`tf.profiler.experimental` (`start` / `stop`, or the TensorBoard callback's `profile_batch`)",
    "opt": "`keras.optimizers` (`keras.optimizers.AdamW` for AdamWOptimizer); LazyAdam only in TensorFlow Addons",
    "metrics": "`keras.metrics` objects (`update_state`, `result`)",
    "lookup": "`tf.lookup` (`tf.lookup.StaticHashTable`, `tf.lookup.StaticVocabularyTable`, "
              "`tf.lookup.KeyValueTensorInitializer`, `tf.lookup.TextFileInitializer`)",
    "distributions": "TensorFlow Probability (`tfp.distributions`)",
    "signal": "`tf.signal`",
    "stateless": "`tf.random.stateless_uniform` / `tf.random.stateless_normal`",
    "mixed_precision": "`keras.mixed_precision` (`keras.mixed_precision.LossScaleOptimizer`)",
    "gan": "TF-GAN (the `tensorflow-gan` package)",
}


def home(name: str) -> str | None:
    """The TF2 home of a canonical `tensorflow.contrib.…` name, or None."""
    rest = name.removeprefix("tensorflow.contrib.")
    if rest == name:
        return None
    parts = rest.split(".")
    for cut in range(len(parts), 0, -1):
        found = HOMES.get(".".join(parts[:cut]))
        if found is not None:
            return found
    return None
