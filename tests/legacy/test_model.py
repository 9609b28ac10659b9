"""`model_fn`: variable names, modes, optimizers, and seeded initial weights across processes."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import tensorflow as tf

from legacy.estimator import train
from legacy.model import DEFAULT_PARAMS, VARIABLE_SHAPES, initial_weights, model_fn
from migrate.core.mnist_model import LOSS_TENSOR_NAME

ROOT = Path(__file__).resolve().parents[2]
WEIGHTS_DIGEST = """
import sys
from tests.legacy.test_model import digest
from legacy.model import initial_weights
print(digest(initial_weights(seed=int(sys.argv[1]))))
"""


def digest(weights: dict[str, np.ndarray]) -> str:
    hasher = hashlib.sha256()
    for name in sorted(weights):
        hasher.update(name.encode())
        hasher.update(weights[name].tobytes())
    return hasher.hexdigest()


def weights_digest_in_a_new_process(seed: int) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TF_ENABLE_ONEDNN_OPTS": "0", "TF_CPP_MIN_LOG_LEVEL": "3"}
    result = subprocess.run(
        [sys.executable, "-c", WEIGHTS_DIGEST, str(seed)], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.strip().splitlines()[-1]


def test_same_seed_in_two_processes_gives_identical_initial_weights():
    first = weights_digest_in_a_new_process(3)
    second = weights_digest_in_a_new_process(3)

    assert first == second
    assert digest(initial_weights(seed=3)) == first
    assert digest(initial_weights(seed=4)) != first


def test_the_estimator_starts_from_the_seeded_initial_weights_whatever_the_input_graph(make_estimator, train_arrays):
    estimator = make_estimator(seed=5)
    train(estimator, train_arrays, steps=1, batch_size=32)
    step_zero = os.path.join(estimator.model_dir, "model.ckpt-0")
    expected = initial_weights(seed=5)

    for name in VARIABLE_SHAPES:
        np.testing.assert_array_equal(tf.train.load_variable(step_zero, name), expected[name], err_msg=name)


def test_checkpoint_names_and_shapes_are_variable_shapes(make_estimator, train_arrays):
    estimator = make_estimator(params={"optimizer": "sgd"})
    train(estimator, train_arrays, steps=1, batch_size=32)
    stored = dict(tf.train.list_variables(estimator.model_dir))

    assert list(VARIABLE_SHAPES) == [f"{scope}/{kind}" for scope in ("conv1", "conv2", "fc1", "fc2", "logits") for kind in ("weights", "biases")]
    assert {name: tuple(shape) for name, shape in stored.items() if name != "global_step"} == VARIABLE_SHAPES
    assert stored["global_step"] == []


def test_adam_adds_its_slots_and_sgd_none(make_estimator, train_arrays):
    adam = make_estimator("adam")
    train(adam, train_arrays, steps=1, batch_size=32)

    names = {name for name, _ in tf.train.list_variables(adam.model_dir)}
    assert {"conv1/weights/Adam", "conv1/weights/Adam_1", "beta1_power", "beta2_power"} <= names


def build(mode: str, features=None, labels=None, params=None) -> tf.estimator.EstimatorSpec:
    images = tf.compat.v1.placeholder(tf.uint8, [None, 28, 28]) if features is None else features
    if labels is None and mode != tf.estimator.ModeKeys.PREDICT:
        labels = tf.compat.v1.placeholder(tf.uint8, [None])
    return model_fn(images, labels, mode, params)


def test_predict_mode_returns_classes_probabilities_logits():
    with tf.Graph().as_default():
        spec = build(tf.estimator.ModeKeys.PREDICT)

    assert sorted(spec.predictions) == ["classes", "logits", "probabilities"]
    assert spec.loss is None and spec.train_op is None


def test_eval_mode_has_accuracy_and_the_named_loss():
    with tf.Graph().as_default():
        images = tf.compat.v1.placeholder(tf.uint8, [None, 28, 28])
        spec = build(tf.estimator.ModeKeys.EVAL, features={"images": images})

    assert list(spec.eval_metric_ops) == ["accuracy"]
    assert spec.loss.name == LOSS_TENSOR_NAME
    assert spec.train_op is None


def test_train_mode_increments_the_global_step():
    with tf.Graph().as_default():
        spec = build(tf.estimator.ModeKeys.TRAIN, params={"optimizer": "sgd"})
        step = tf.compat.v1.train.get_global_step()
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            session.run(spec.train_op, {"Placeholder:0": np.zeros((2, 28, 28), np.uint8), "Placeholder_1:0": [1, 2]})
            assert session.run(step) == 1


def test_dropout_is_applied_in_training_only_and_skipped_at_rate_zero():
    def dropout_ops(mode: str, rate: float) -> int:
        with tf.Graph().as_default() as graph:
            build(mode, params={"dropout_rate": rate})
            return sum(op.type == "RandomUniform" and "dropout" in op.name for op in graph.get_operations())

    assert dropout_ops(tf.estimator.ModeKeys.TRAIN, 0.5) == 2
    assert dropout_ops(tf.estimator.ModeKeys.TRAIN, 0.0) == 0
    assert dropout_ops(tf.estimator.ModeKeys.EVAL, 0.5) == 0


@pytest.mark.parametrize(
    ("features", "params", "message"),
    [
        pytest.param("dict", None, "expected the key 'images'", id="features dict without images"),
        pytest.param(None, {"optimizer": "rmsprop"}, "expected one of", id="unknown optimizer"),
    ],
)
def test_bad_features_and_params_are_named(features, params, message):
    with tf.Graph().as_default():
        feature_value = {"pixels": tf.compat.v1.placeholder(tf.uint8, [None, 28, 28])} if features == "dict" else None
        with pytest.raises(ValueError, match=message):
            build(tf.estimator.ModeKeys.TRAIN, features=feature_value, params=params)


def test_a_second_model_in_one_graph_is_refused_because_hooks_fetch_loss_0():
    with tf.Graph().as_default():
        build(tf.estimator.ModeKeys.EVAL)
        with pytest.raises(ValueError, match="build each model in a fresh tf.Graph"):
            with tf.compat.v1.variable_scope("second"):
                build(tf.estimator.ModeKeys.EVAL)


def test_default_params_are_the_tutorials():
    assert DEFAULT_PARAMS == {"learning_rate": 1e-3, "optimizer": "adam", "dropout_rate": 0.5, "adam_epsilon": 1e-8}
