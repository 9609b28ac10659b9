"""The `tf.contrib` twins build what TF 1.15 builds: its variable names and scopes (from TF 1.15's contrib sources),
its initial values (drawn with the same seeds through the core ops TF 1.15 calls) and its math."""
from __future__ import annotations

import math

import numpy as np
import pytest

pytestmark = pytest.mark.estimator


@pytest.fixture(scope="module")
def tf():
    import tensorflow as tf2

    from migrate.port.contrib import install

    install()
    return tf2.compat.v1


def built(tf, build, seed=3):
    """Run `build()` in a fresh graph with graph seed `seed`; return (its value, {variable name: value})."""
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(seed)
        result = build()
        with tf.Session(graph=graph) as session:
            session.run(tf.global_variables_initializer())
            value = session.run(result) if result is not None else None
            variables = {variable.op.name: session.run(variable) for variable in tf.global_variables()}
    return value, variables


def names(tf, build) -> list[str]:
    graph = tf.Graph()
    with graph.as_default():
        build()
        return [variable.op.name for variable in tf.global_variables()]


def test_fully_connected_names_its_variables_weights_and_biases_under_its_scope(tf):
    def build():
        x = tf.zeros([2, 4])
        tf.contrib.layers.fully_connected(tf.contrib.layers.fully_connected(x, 3), 2, scope="logits")
        tf.contrib.layers.fully_connected(x, 3)

    assert names(tf, build) == ["fully_connected/weights", "fully_connected/biases", "logits/weights",
                                "logits/biases", "fully_connected_1/weights", "fully_connected_1/biases"]


def test_fully_connected_lists_its_variables_as_model_variables_and_applies_relu_by_default(tf):
    graph = tf.Graph()
    with graph.as_default():
        out = tf.contrib.layers.fully_connected(tf.zeros([2, 4]), 3)
        linear = tf.contrib.layers.linear(tf.zeros([2, 4]), 3)
        assert [v.op.name for v in tf.get_collection(tf.GraphKeys.MODEL_VARIABLES)] == [
            "fully_connected/weights", "fully_connected/biases", "fully_connected_1/weights", "fully_connected_1/biases"]
    assert out.op.type == "Relu"
    assert linear.op.type == "BiasAdd"


def test_fully_connected_draws_xavier_uniform_weights_and_zero_biases(tf):
    _, contrib = built(tf, lambda: tf.contrib.layers.fully_connected(
        tf.zeros([2, 5]), 3, weights_initializer=tf.contrib.layers.xavier_initializer(seed=7)))
    _, core = built(tf, lambda: tf.get_variable("w", [5, 3], initializer=tf.glorot_uniform_initializer(seed=7)))
    np.testing.assert_array_equal(contrib["fully_connected/weights"], core["w"])
    np.testing.assert_array_equal(contrib["fully_connected/biases"], np.zeros(3, np.float32))
    assert np.abs(contrib["fully_connected/weights"]).max() <= math.sqrt(6 / 8)


def test_fully_connected_computes_relu_of_the_affine_map(tf):
    x = np.arange(10, dtype=np.float32).reshape(2, 5) / 10 - 0.2
    value, variables = built(tf, lambda: tf.contrib.layers.fully_connected(tf.constant(x), 3))
    # numpy's and TensorFlow's matmul may sum in another order (it varies with the CPU's kernels): rounding level
    np.testing.assert_allclose(value, np.maximum(x @ variables["fully_connected/weights"], 0), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(("uniform", "factor", "mode", "n"), [
    pytest.param(False, 2.0, "FAN_IN", 6.0, id="He by default: truncated normal with stddev sqrt(1.3 * 2 / fan_in)"),
    pytest.param(False, 1.0, "FAN_AVG", 4.5, id="xavier normal: stddev sqrt(1.3 / fan_avg)"),
    pytest.param(True, 1.0, "FAN_OUT", 3.0, id="uniform within sqrt(3 * factor / fan_out)"),
])
def test_variance_scaling_draws_what_tf115_draws(tf, uniform, factor, mode, n):
    initializer = tf.contrib.layers.variance_scaling_initializer(factor, mode, uniform, seed=11)
    _, contrib = built(tf, lambda: tf.get_variable("w", [6, 3], initializer=initializer))

    def draw():
        limit = math.sqrt(3 * factor / n)
        return (tf.random.uniform([6, 3], -limit, limit, seed=11) if uniform
                else tf.random.truncated_normal([6, 3], 0.0, math.sqrt(1.3 * factor / n), seed=11))

    drawn, _ = built(tf, draw)
    np.testing.assert_array_equal(contrib["w"], drawn)


def test_embed_sequence_looks_up_rows_of_its_embeddings_variable(tf):
    ids = np.array([[1, 4, 4], [0, 2, 9]])

    def build():
        tf.contrib.layers.embed_sequence(ids, 10, 3, scope="words")
        return tf.contrib.layers.embed_sequence(ids, vocab_size=10, embed_dim=3,
                                                initializer=tf.random_uniform_initializer(-1.0, 1.0, seed=5))

    value, variables = built(tf, build)
    assert list(variables) == ["words/embeddings", "EmbedSequence/embeddings"]
    assert variables["EmbedSequence/embeddings"].shape == (10, 3)
    np.testing.assert_array_equal(value, variables["EmbedSequence/embeddings"][ids])


def test_embed_sequence_without_sizes_raises_as_tf115_does(tf):
    with tf.Graph().as_default(), pytest.raises(ValueError, match="Must specify vocab size and embedding dimension"):
        tf.contrib.layers.embed_sequence(tf.zeros([2, 3], tf.int64))


def test_flatten_keeps_the_batch_and_multiplies_the_rest(tf):
    value, _ = built(tf, lambda: tf.contrib.layers.flatten(tf.reshape(tf.range(24.0), [2, 3, 4])))
    np.testing.assert_array_equal(value, np.arange(24.0, dtype=np.float32).reshape(2, 12))


def test_l1_and_l2_regularizers_are_scaled_abs_sum_and_half_square_sum(tf):
    weights = np.array([[1.0, -2.0], [3.0, 0.5]], np.float32)
    (l1, l2), _ = built(tf, lambda: (tf.contrib.layers.l1_regularizer(0.1)(tf.constant(weights)),
                                     tf.contrib.layers.l2_regularizer(0.1)(tf.constant(weights))))
    assert l1 == np.float32(0.1) * np.abs(weights).sum()
    assert l2 == np.float32(0.1) * np.float32((weights ** 2).sum() / 2)
    assert tf.contrib.layers.l2_regularizer(0.0)(tf.constant(weights)) is None
    with pytest.raises(ValueError, match="scale cannot be an integer"):
        tf.contrib.layers.l2_regularizer(1)


def test_a_weights_regularizer_joins_the_regularization_losses(tf):
    graph = tf.Graph()
    with graph.as_default():
        tf.contrib.layers.fully_connected(tf.zeros([2, 4]), 3, weights_regularizer=tf.contrib.layers.l2_regularizer(0.5))
        assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == 1


def div_no_nan(numerator, denominator):
    return np.divide(numerator, denominator, out=np.zeros_like(numerator), where=denominator != 0)


@pytest.mark.parametrize(("keywords", "expected"), [
    pytest.param({}, lambda loss, w: (loss * w).sum() / w.sum(), id="a weighted mean over every step by default"),
    pytest.param({"average_across_timesteps": False},
                 lambda loss, w: div_no_nan((loss * w).sum(axis=0), w.sum(axis=0)),
                 id="per step, averaged across the batch (0 where no weight)"),
    pytest.param({"average_across_timesteps": False, "average_across_batch": False, "sum_over_timesteps": True,
                  "sum_over_batch": True}, lambda loss, w: (loss * w).sum() / np.count_nonzero(w),
                 id="summed and divided by the non-zero weights"),
])
def test_sequence_loss_reduces_as_tf115_does(tf, keywords, expected):
    rng = np.random.default_rng(0)
    logits = rng.random((2, 3, 4), dtype=np.float32)
    targets = np.array([[0, 3, 1], [2, 2, 0]])
    weights = np.array([[1, 1, 0], [1, 0, 0]], np.float32)
    value, _ = built(tf, lambda: tf.contrib.seq2seq.sequence_loss(tf.constant(logits), tf.constant(targets),
                                                                  tf.constant(weights), **keywords))
    shifted = logits - logits.max(axis=2, keepdims=True)
    per_step = -(np.take_along_axis(shifted, targets[..., None], 2)[..., 0] - np.log(np.exp(shifted).sum(axis=2)))
    np.testing.assert_allclose(value, expected(per_step, weights), rtol=1e-6)


def test_optimize_loss_makes_its_learning_rate_a_variable_and_steps_the_global_step(tf):
    graph = tf.Graph()
    with graph.as_default():
        step = tf.train.get_or_create_global_step()
        w = tf.get_variable("w", initializer=tf.constant([1.0, -2.0]))
        loss = tf.reduce_sum(w * w)
        train_op = tf.contrib.layers.optimize_loss(loss, tf.contrib.framework.get_global_step(), 0.25, "SGD",
                                                   clip_gradients=1.0)
        assert [v.op.name for v in tf.global_variables() if not v.trainable] == ["global_step",
                                                                                "OptimizeLoss/learning_rate"]
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            reported = session.run(train_op)
            after, steps = session.run([w, step])
    assert reported == 5.0 and steps == 1
    gradient = np.array([2.0, -4.0], np.float32)
    np.testing.assert_allclose(after, np.array([1.0, -2.0]) - 0.25 * gradient / np.linalg.norm(gradient), rtol=1e-6)


def test_the_core_objects_contrib_reexported_are_the_same_objects(tf):
    assert tf.contrib.rnn.LSTMCell is tf.nn.rnn_cell.LSTMCell
    assert tf.contrib.rnn.MultiRNNCell is tf.nn.rnn_cell.MultiRNNCell
    assert tf.contrib.rnn.static_rnn is tf.nn.static_rnn
    assert tf.contrib.framework.get_or_create_global_step is tf.train.get_or_create_global_step
    assert tf.contrib.data.shuffle_and_repeat is tf.data.experimental.shuffle_and_repeat
    optimizer = tf.train.AdamOptimizer(0.1)
    assert tf.contrib.estimator.TowerOptimizer(optimizer) is optimizer


def test_index_table_from_tensor_takes_its_vocabulary_as_mapping(tf):
    def build():
        table = tf.contrib.lookup.index_table_from_tensor(mapping=tf.constant(["a", "b", "c"]), default_value=-1)
        return table.lookup(tf.constant(["c", "a", "z"]))

    graph = tf.Graph()
    with graph.as_default():
        ids = build()
        with tf.Session(graph=graph) as session:
            session.run(tf.tables_initializer())
            np.testing.assert_array_equal(session.run(ids), [2, 0, -1])


def test_contrib_modules_import_as_tf1_code_spells_them(tf):
    import tensorflow.contrib.rnn as rnn  # noqa: PLR0402 - the spelling TF1 code uses
    from tensorflow.contrib import layers
    from tensorflow.contrib.learn.python.learn.estimators import rnn_common

    assert layers.fully_connected is tf.contrib.layers.fully_connected
    assert rnn.GRUCell is tf.nn.rnn_cell.GRUCell
    assert rnn_common.RNNKeys.SEQUENCE_LENGTH_KEY == "sequence_length"


def test_a_contrib_name_without_a_twin_raises_naming_itself(tf):
    with pytest.raises(AttributeError, match="tf.contrib.rnn.LayerNormBasicLSTMCell has no TF1-core twin"):
        tf.contrib.rnn.LayerNormBasicLSTMCell  # noqa: B018 - the lookup is what raises
    with pytest.raises(ImportError, match="tensorflow.contrib.slim"):
        import tensorflow.contrib.slim  # noqa: F401
