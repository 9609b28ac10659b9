"""Each feature-column twin against TF1's own column: forward output bit-identical on a batch with every edge.

The batch has out-of-vocabulary values, empty strings and -1 (missing),
values below, between and above the bucket boundaries, ids out of range,
multi-valued rows (the combiners), weights with zeros, and more strings than
hash buckets (collisions). TF1's side runs in a graph and Session, as the
canned estimators do (``input_layer`` / ``linear_model``); the weights are
drawn once and copied to the twin by name.
"""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

import modern.feature_columns as twins

fc = tf.compat.v1.feature_column

FEATURES = {
    "num": np.array([[1.5], [-2.0], [0.0], [1e9], [3.0], [0.25]], np.float32),
    "pair": np.array([[1.5, 2.0], [-2.0, 0.0], [0.0, 7.0], [1e9, 1.0], [3.0, -1.0], [0.5, 1.0]], np.float32),
    "word": np.array([["a"], ["zzz"], [""], ["b"], ["c"], ["a"]]),
    "words": np.array([["a", "b"], ["", ""], ["a", "a"], ["c", ""], ["q", "b"], ["b", "c"]]),
    "tokens": np.array([["x", "y"], ["", ""], ["x", "x"], ["w", ""], ["v", "u"], ["t", "s"]]),
    "weights": np.array([[0.5, 2.0], [0.0, 0.0], [1.0, 3.0], [1.5, 0.0], [1.0, 1.0], [2.0, 0.25]], np.float32),
    "code": np.array([[3], [-1], [99], [0], [2], [7]], np.int64),
}
"""Six examples; ``weights`` is zero exactly where ``words`` is empty (TF1 requires aligned weights)."""

BOUNDARIES = [0.0, 1.0, 2.0]


def tf1_columns(vocabulary_file: str) -> dict[str, object]:
    num = fc.numeric_column("num", normalizer_fn=lambda x: x * 0.5 + 1.0)
    pair = fc.numeric_column("pair", shape=(2,))
    bucketized = fc.bucketized_column(pair, BOUNDARIES)
    word = fc.categorical_column_with_vocabulary_list("word", ["a", "b"], num_oov_buckets=3)
    words = fc.categorical_column_with_vocabulary_list("words", ["a", "b", "c"])
    code = fc.categorical_column_with_identity("code", 10, default_value=0)
    hashed = fc.categorical_column_with_hash_bucket("tokens", 3)
    crossed = fc.crossed_column(["word", bucketized], 7)
    weighted = fc.weighted_categorical_column(words, "weights")
    from_file = fc.categorical_column_with_vocabulary_file("word", vocabulary_file, vocabulary_size=2, num_oov_buckets=2)
    return {
        "embedding_vocabulary_file": [fc.embedding_column(from_file, 2)],
        "numeric": [num, pair], "bucketized": [bucketized], "indicator_oov_buckets": [fc.indicator_column(word)],
        "indicator_multivalent": [fc.indicator_column(words)], "indicator_identity": [fc.indicator_column(code)],
        "indicator_weighted": [fc.indicator_column(weighted)],
        "embedding_mean": [fc.embedding_column(words, 3)],
        "embedding_sqrtn": [fc.embedding_column(words, 3, combiner="sqrtn")],
        "embedding_sum_hash_collisions": [fc.embedding_column(hashed, 2, combiner="sum")],
        "embedding_crossed": [fc.embedding_column(crossed, 2)],
        "embedding_weighted": [fc.embedding_column(weighted, 2)],
        "linear_all_sum": [num, bucketized, word, code, hashed, crossed, weighted],
        "linear_all_mean": [num, bucketized, word, code, hashed, crossed, weighted],
        "linear_all_sqrtn": [num, bucketized, word, code, hashed, crossed, weighted],
    }


def twin_columns(vocabulary_file: str) -> dict[str, object]:
    num = twins.Numeric("num", normalizer_fn=lambda x: x * 0.5 + 1.0)
    pair = twins.Numeric("pair", shape=(2,))
    bucketized = twins.Bucketized(pair, BOUNDARIES)
    word = twins.VocabularyList("word", ["a", "b"], num_oov_buckets=3)
    words = twins.VocabularyList("words", ["a", "b", "c"])
    code = twins.Identity("code", 10, default_value=0)
    hashed = twins.HashBucket("tokens", 3)
    crossed = twins.Crossed(["word", bucketized], 7)
    weighted = twins.Weighted(words, "weights")
    from_file = twins.VocabularyFile("word", vocabulary_file, vocabulary_size=2, num_oov_buckets=2)
    linear = [num, bucketized, word, code, hashed, crossed, weighted]
    return {
        "embedding_vocabulary_file": [twins.Embedding(from_file, 2)],
        "numeric": [num, pair], "bucketized": [bucketized], "indicator_oov_buckets": [twins.Indicator(word)],
        "indicator_multivalent": [twins.Indicator(words)], "indicator_identity": [twins.Indicator(code)],
        "indicator_weighted": [twins.Indicator(weighted)],
        "embedding_mean": [twins.Embedding(words, 3)],
        "embedding_sqrtn": [twins.Embedding(words, 3, combiner="sqrtn")],
        "embedding_sum_hash_collisions": [twins.Embedding(hashed, 2, combiner="sum")],
        "embedding_crossed": [twins.Embedding(crossed, 2)],
        "embedding_weighted": [twins.Embedding(weighted, 2)],
        "linear_all_sum": linear, "linear_all_mean": linear, "linear_all_sqrtn": linear,
    }


CASES = list(tf1_columns("words.txt"))


@pytest.fixture(scope="module")
def vocabulary_file(tmp_path_factory) -> str:
    """Three lines, of which the column reads the first two (``vocabulary_size=2``): "c" is out of vocabulary."""
    path = tmp_path_factory.mktemp("vocabulary") / "words.txt"
    path.write_text("b\na\nc\n")
    return str(path)


@pytest.fixture(scope="module")
def tf1_results(vocabulary_file) -> dict[str, tuple[np.ndarray, dict[str, np.ndarray]]]:
    """Every case's TF1 output and variables, from one graph and one Session."""
    graph = tf.Graph()
    outputs, variables = {}, {}
    with graph.as_default():
        features = {key: tf.constant(value) for key, value in FEATURES.items()}
        for case, columns in tf1_columns(vocabulary_file).items():
            with tf.compat.v1.variable_scope(case):
                if case.startswith("linear_"):
                    outputs[case] = fc.linear_model(features, columns, units=2, sparse_combiner=case.rsplit("_", 1)[1])
                else:
                    outputs[case] = fc.input_layer(features, columns)
        all_variables = tf.compat.v1.global_variables()
        rng = np.random.default_rng(7)
        with tf.compat.v1.Session(graph=graph) as session:
            session.run([tf.compat.v1.global_variables_initializer(), tf.compat.v1.tables_initializer()])
            session.run([v.assign(rng.normal(size=v.shape.as_list()).astype(np.float32)) for v in all_variables])
            values = session.run({"outputs": outputs, "variables": {v.name.split(":")[0]: v for v in all_variables}})
    for name, value in values["variables"].items():
        case, rest = name.split("/", 1)
        variables.setdefault(case, {})[rest] = value
    return {case: (values["outputs"][case], variables.get(case, {})) for case in CASES}


def twin_output(case: str, columns: list) -> tuple[np.ndarray, list[str]]:
    layer = twins.LinearModel(columns, units=2, sparse_combiner=case.rsplit("_", 1)[1]) if case.startswith(
        "linear_") else twins.DenseFeatures(columns)
    features = {key: tf.constant(value) for key, value in FEATURES.items()}
    layer(features)
    return layer, features


@pytest.mark.parametrize("case", CASES)
def test_twin_forward_is_bit_identical_to_tf1(case, tf1_results, vocabulary_file):
    expected, tf1_variables = tf1_results[case]
    layer, features = twin_output(case, twin_columns(vocabulary_file)[case])
    names = []
    for weight in layer.weights:
        name = getattr(weight, "path", None) or weight.name.split(":")[0]
        names.append(name)
        weight.assign(tf1_variables[name])
    assert sorted(names) == sorted(tf1_variables), "every TF1 variable has a twin weight of the same name"
    actual = layer(features).numpy()
    assert actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected)


def test_edges_are_exercised(tf1_results):
    """The batch really hits OOV buckets, missing ids, clipped identities and hash collisions."""
    ids = {name: twin.call(FEATURES).numpy() for name, twin in (
        ("word", twins.VocabularyList("word", ["a", "b"], num_oov_buckets=3)),
        ("code", twins.Identity("code", 10, default_value=0)),
        ("tokens", twins.HashBucket("tokens", 3)))}
    assert (ids["word"] >= 2).any() and (ids["word"] == -1).any()  # OOV bucket and the empty string
    assert ids["code"][2, 0] == 0 and ids["code"][1, 0] == -1  # 99 → default 0; -1 is missing
    tokens = FEATURES["tokens"][FEATURES["tokens"] != ""]
    assert len(set(tokens)) > 3  # more distinct strings than buckets: collisions


def test_keras_hashing_layer_gives_the_same_ids_as_the_hash_bucket_column():
    import keras

    values = FEATURES["tokens"][FEATURES["tokens"] != ""]
    ours = twins.HashBucket("tokens", 3).call({"tokens": values.reshape(-1, 1)}).numpy().ravel()
    theirs = np.asarray(keras.layers.Hashing(num_bins=3)(values)).ravel()
    np.testing.assert_array_equal(ours, theirs)


def test_twins_inside_a_functional_model(tf1_results, vocabulary_file):
    """The twins trace symbolically (Keras 3 and 2) and keep their exact output inside a `keras.Model`."""
    import keras

    case = "embedding_crossed"
    expected, tf1_variables = tf1_results[case]
    inputs = {key: keras.Input(shape=value.shape[1:], dtype=tf.as_dtype(value.dtype).name, name=key)
              for key, value in FEATURES.items()}
    layer = twins.DenseFeatures(twin_columns(vocabulary_file)[case])
    model = keras.Model(inputs, layer(inputs))
    for weight in model.weights:
        weight.assign(tf1_variables[getattr(weight, "path", None) or weight.name.split(":")[0]])
    np.testing.assert_array_equal(np.asarray(model(FEATURES)), expected)


@pytest.mark.estimator
def test_shared_embeddings_are_bit_identical_to_tf1():
    """v2 ``shared_embeddings`` under the canned estimators' input layer (``tf.compat.v1.keras``: TF 2.15 only)."""
    words = tf.feature_column.categorical_column_with_vocabulary_list("words", ["a", "b", "c"])
    word = tf.feature_column.categorical_column_with_vocabulary_list("word", ["c", "b", "a"])
    graph = tf.Graph()
    with graph.as_default():
        shared = tf.feature_column.shared_embeddings([words, word], 2, combiner="sqrtn")
        layer = tf.compat.v1.keras.layers.DenseFeatures(shared, name="input_layer")
        output = layer({key: tf.constant(value) for key, value in FEATURES.items()})
        variables = tf.compat.v1.global_variables()
        with tf.compat.v1.Session(graph=graph) as session:
            session.run([tf.compat.v1.global_variables_initializer(), tf.compat.v1.tables_initializer()])
            expected, values = session.run([output, {v.name.split(":")[0]: v for v in variables}])
    (tf1_name, table_value), = values.items()
    table = twins.SharedEmbeddingTable(tf1_name.rsplit("/", 1)[0].split("/")[-1], 3, 2)
    twin = twins.DenseFeatures([twins.SharedEmbedding(twins.VocabularyList("words", ["a", "b", "c"]), table, "sqrtn"),
                                twins.SharedEmbedding(twins.VocabularyList("word", ["c", "b", "a"]), table, "sqrtn")])
    features = {key: tf.constant(value) for key, value in FEATURES.items()}
    twin(features)
    table.embedding_weights.assign(table_value)
    np.testing.assert_array_equal(twin(features).numpy(), expected)
