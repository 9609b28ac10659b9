"""What the legacy side reads off a TF1 graph for the stages' messages: the optimizer and each kernel's layer input."""
from __future__ import annotations

import pytest

tf = pytest.importorskip("tensorflow")

from migrate.parity.sides.legacy_side import layer_inputs, tf1_optimizers_of  # noqa: E402

pytestmark = pytest.mark.estimator


def _graph(optimizer):
    graph = tf.Graph()
    with graph.as_default():
        features = tf.compat.v1.placeholder(tf.float32, (None, 3), name="features")
        hidden = tf.compat.v1.layers.dense(features, 4, activation=tf.nn.relu, name="hidden")
        logits = tf.compat.v1.layers.dense(hidden, 1, name="logits")
        loss = tf.reduce_mean(logits)
        optimizer.minimize(loss)
        return graph, features, hidden


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        pytest.param(lambda: tf.compat.v1.train.MomentumOptimizer(0.1, 0.9), ["MomentumOptimizer"], id="momentum"),
        pytest.param(lambda: tf.compat.v1.train.AdamOptimizer(1e-3), ["AdamOptimizer"], id="Adam"),
        pytest.param(lambda: tf.compat.v1.train.GradientDescentOptimizer(0.1), ["GradientDescentOptimizer"],
                     id="SGD, which has no slots, by its update kernel"),
    ],
)
def test_the_tf1_optimizer_is_read_from_the_train_graph(make, expected):
    graph, _, _ = _graph(make())
    with graph.as_default():
        assert tf1_optimizers_of(graph, tf.compat.v1.trainable_variables(), tf.compat.v1.global_variables()) == expected


def test_two_tf1_optimizers_are_both_named_in_the_order_they_were_built():
    graph = tf.Graph()
    with graph.as_default():
        features = tf.compat.v1.placeholder(tf.float32, (None, 3))
        wide = tf.compat.v1.layers.dense(features, 1, name="wide")
        deep = tf.compat.v1.layers.dense(features, 1, name="deep")
        loss = tf.reduce_mean(wide + deep)
        tf.compat.v1.train.FtrlOptimizer(0.1).minimize(loss, var_list=tf.compat.v1.trainable_variables("wide"))
        tf.compat.v1.train.AdagradOptimizer(0.1).minimize(loss, var_list=tf.compat.v1.trainable_variables("deep"))
        found = tf1_optimizers_of(graph, tf.compat.v1.trainable_variables(), tf.compat.v1.global_variables())
    assert found == ["FtrlOptimizer", "AdagradOptimizer"]


def test_each_kernel_maps_to_the_tensor_its_layer_multiplies_it_with():
    graph, features, hidden = _graph(tf.compat.v1.train.GradientDescentOptimizer(0.1))
    with graph.as_default():
        found = layer_inputs(tf.compat.v1.trainable_variables())
    assert found == {"hidden/kernel": features, "logits/kernel": hidden}


def test_a_model_fn_returning_a_dict_is_a_usage_error_naming_it():
    from migrate.parity.pair import Pair, PairError
    from migrate.parity.sides.legacy_side import call_model_fn

    def model_fn(features, labels, mode, params):
        return {"loss": tf.reduce_sum(features), "train_op": tf.no_op()}

    pair = Pair("dict", "pair.py", {"model_fn": model_fn})
    with tf.Graph().as_default(), pytest.raises(PairError, match="pair.py: model_fn.* returned a dict, not a "
                                                "tf.estimator.EstimatorSpec: return tf.estimator.EstimatorSpec"):
        call_model_fn(pair, tf.zeros([2, 3]), None, tf.estimator.ModeKeys.TRAIN, {})
