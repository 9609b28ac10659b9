"""`modern.weights`: legacy checkpoints in and out, checked by identical outputs."""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from modern.model import build_model
from modern.weights import LegacyCheckpointError, load_legacy_checkpoint, save_legacy_checkpoint
from tests.modern.tf1_graph import VARIABLE_SHAPES, build_tf1_graph


def _logits(model, images):
    """Through the compiled predict function: graph-mode kernels (fused by Grappler) as in a TF1 session."""
    return np.asarray(model.predict_on_batch(images))


def test_round_trip_gives_identical_outputs(mnist, tmp_path):
    images = mnist.x_test[:64]
    source = build_model({"dropout_rate": 0.0}, seed=1)
    prefix = save_legacy_checkpoint(source, tmp_path / "model.ckpt-0")
    target = build_model({"dropout_rate": 0.0}, seed=2)
    assert not np.array_equal(_logits(source, images), _logits(target, images))
    assert load_legacy_checkpoint(target, tmp_path) == 0
    assert prefix == str(tmp_path / "model.ckpt-0")
    np.testing.assert_array_equal(_logits(source, images), _logits(target, images))


def test_written_checkpoint_has_the_legacy_names_and_shapes(tmp_path):
    prefix = save_legacy_checkpoint(build_model(), tmp_path / "model.ckpt", global_step=42)
    shapes = dict(tf.train.list_variables(prefix))
    assert {name: tuple(shape) for name, shape in shapes.items() if name != "global_step"} == VARIABLE_SHAPES
    assert tf.train.load_checkpoint(prefix).get_tensor("global_step") == 42


def test_a_tf1_get_variable_checkpoint_loads_with_identical_logits(mnist, tmp_path):
    graph = build_tf1_graph()
    images = mnist.x_test[:128]
    with graph.graph.as_default():
        prefix = graph.saver.save(graph.session, str(tmp_path / "model.ckpt"), global_step=0)
    expected = graph.run_logits(images)
    model = build_model({"dropout_rate": 0.0})
    assert load_legacy_checkpoint(model, prefix) == 0
    np.testing.assert_array_equal(_logits(model, images), expected)


def test_a_tf1_checkpoint_with_wrong_shapes_names_every_problem(tmp_path):
    with tf.Graph().as_default() as graph:
        tf.compat.v1.get_variable("conv1/weights", shape=(3, 3, 1, 20))
        tf.compat.v1.get_variable("conv1/biases", shape=(20,))
        saver = tf.compat.v1.train.Saver()
        with tf.compat.v1.Session(graph=graph) as session:
            session.run(tf.compat.v1.global_variables_initializer())
            prefix = saver.save(session, str(tmp_path / "model.ckpt"))
    with pytest.raises(LegacyCheckpointError) as error:
        load_legacy_checkpoint(build_model(), prefix)
    message = str(error.value)
    assert "conv1/weights has shape (3, 3, 1, 20), the model expects (5, 5, 1, 20)" in message
    assert "fc1/weights is missing" in message and "logits/biases is missing" in message


def test_missing_checkpoint_is_a_clear_error(tmp_path):
    with pytest.raises(LegacyCheckpointError, match="holds no checkpoint"):
        load_legacy_checkpoint(build_model(), tmp_path)
    with pytest.raises(LegacyCheckpointError, match="does not exist"):
        load_legacy_checkpoint(build_model(), tmp_path / "model.ckpt-7")
