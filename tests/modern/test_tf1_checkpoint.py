"""`modern.tf1_checkpoint`: a TF1 run continued in Keras, checked against TF1 continuing itself.

The TF1 side is the legacy network as a plain `tf.compat.v1` graph
(`tests/modern/tf1_graph.py`) trained with `AdamOptimizer`: K steps, a
checkpoint, K more steps, a second checkpoint. The Keras side loads the
first checkpoint — weights, Adam's slots, beta powers, global step — and
trains the same K batches; with the exact Adam every value equals TF1's
second checkpoint bit for bit. Runs on TF 2.15 and TF 2.21 (no Estimator).
"""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from tensorflow import keras

from modern.cli import main
from modern.model import build_model
from modern.tf1_checkpoint import TF1CheckpointError, load_tf1_checkpoint, plan_assignments
from modern.training import restore
from modern.weights import legacy_variables
from tests.modern.tf1_graph import build_tf1_graph

K = 4
BATCH = 32
PARAMS = {"optimizer": "adam", "learning_rate": 1e-3, "dropout_rate": 0.0}


class StepLosses(keras.callbacks.Callback):
    def __init__(self) -> None:
        super().__init__()
        self.losses: list[float] = []

    def on_train_batch_end(self, batch, logs=None):
        self.losses.append(float(logs["step_loss"]))


@pytest.fixture(scope="module")
def tf1_run(mnist, tmp_path_factory):
    """TF1 Adam: checkpoint at step K and at 2K, the batches and the TF1 losses of steps K+1..2K."""
    directory = tmp_path_factory.mktemp("tf1_adam")
    images, labels = mnist.x_train[: 2 * K * BATCH], mnist.y_train[: 2 * K * BATCH].astype(np.int64)
    batches = [(images[i: i + BATCH], labels[i: i + BATCH]) for i in range(0, 2 * K * BATCH, BATCH)]
    graph = build_tf1_graph(optimizer=lambda: tf.compat.v1.train.AdamOptimizer(1e-3))
    with graph.graph.as_default():
        graph.sgd_losses(batches[:K])
        at_k = graph.saver.save(graph.session, str(directory / "model.ckpt"), global_step=K)
        losses = graph.sgd_losses(batches[K:])
        at_2k = graph.saver.save(graph.session, str(directory / "model.ckpt"), global_step=2 * K)
    graph.session.close()
    return {"at_k": at_k, "at_2k": at_2k, "batches": batches[K:], "losses": [float(loss) for loss in losses]}


def _continue_in_keras(tf1_run, flavour):
    model = build_model(PARAMS, optimizer_flavour=flavour)
    assert load_tf1_checkpoint(model, tf1_run["at_k"]) == K
    images = np.concatenate([batch[0] for batch in tf1_run["batches"]])
    labels = np.concatenate([batch[1] for batch in tf1_run["batches"]])
    recorder = StepLosses()
    model.fit(tf.data.Dataset.from_tensor_slices((images, labels)).batch(BATCH), epochs=1, callbacks=[recorder], verbose=0, shuffle=False)
    return model, recorder.losses


def _differences(model, checkpoint):
    """Checkpoint name → max |Δ| between the model/optimizer value and the checkpoint's."""
    reader = tf.train.load_checkpoint(checkpoint)
    assignments, problems = plan_assignments(reader, model.optimizer, legacy_variables(model))
    assert problems == []
    return {
        assignment.name: float(np.max(np.abs(np.asarray(assignment.target) - assignment.transform(reader.get_tensor(assignment.name)))))
        for assignment in assignments
    }


def test_exact_adam_continues_a_tf1_run_bit_for_bit(tf1_run):
    model, losses = _continue_in_keras(tf1_run, "exact")

    differences = _differences(model, tf1_run["at_2k"])
    assert {"conv1/weights/Adam", "logits/biases/Adam_1", "beta1_power", "beta2_power"} <= set(differences)
    assert {name: diff for name, diff in differences.items() if diff != 0.0} == {}
    assert losses == tf1_run["losses"]
    assert int(model.optimizer.iterations.numpy()) == 2 * K


def test_keras_adam_continues_within_the_documented_tolerance(tf1_run):
    model, losses = _continue_in_keras(tf1_run, "native")

    np.testing.assert_allclose(losses, tf1_run["losses"], rtol=1e-5)
    weights = {name: diff for name, diff in _differences(model, tf1_run["at_2k"]).items() if "/Adam" not in name}
    assert max(weights.values()) < 1e-5


def _saved_initial(tmp_path, optimizer):
    graph = build_tf1_graph(optimizer=optimizer)
    with graph.graph.as_default():
        prefix = graph.saver.save(graph.session, str(tmp_path / "model.ckpt"), global_step=0)
    graph.session.close()
    return prefix


def _state(model):
    return [np.asarray(variable).copy() for variable in model.variables + model.optimizer.variables]


def _assert_unchanged(model, before):
    assert all(np.array_equal(a, b) for a, b in zip(before, _state(model)))


def test_slots_of_another_optimizer_are_named_and_nothing_is_loaded(tmp_path):
    prefix = _saved_initial(tmp_path, lambda: tf.compat.v1.train.MomentumOptimizer(0.1, momentum=0.9))
    model = build_model(PARAMS, optimizer_flavour="exact")
    before = _state(model)

    with pytest.raises(TF1CheckpointError) as error:
        load_tf1_checkpoint(model, prefix)

    message = str(error.value)
    assert "conv1/weights/Adam (Adam slot) is missing" in message and "beta1_power (Adam state) is missing" in message
    assert "['conv1/weights/Momentum'] (written by MomentumOptimizer)" in message
    _assert_unchanged(model, before)


def test_a_checkpoint_without_optimizer_slots_is_refused_for_adam(tmp_path):
    prefix = _saved_initial(tmp_path, None)
    model = build_model(PARAMS, optimizer_flavour="native")
    before = _state(model)

    with pytest.raises(TF1CheckpointError, match=r"fc1/weights/Adam_1 \(Adam slot\) is missing"):
        load_tf1_checkpoint(model, prefix)
    _assert_unchanged(model, before)


def test_a_checkpoint_of_another_model_names_the_variables(tmp_path):
    with tf.Graph().as_default() as graph:
        tf.compat.v1.get_variable("conv1/weights", shape=(3, 3, 1, 20))
        tf.compat.v1.train.get_or_create_global_step()
        saver = tf.compat.v1.train.Saver()
        with tf.compat.v1.Session(graph=graph) as session:
            session.run(tf.compat.v1.global_variables_initializer())
            prefix = saver.save(session, str(tmp_path / "model.ckpt"))
    model = build_model({**PARAMS, "optimizer": "sgd"}, optimizer_flavour="exact")
    before = _state(model)

    with pytest.raises(TF1CheckpointError) as error:
        load_tf1_checkpoint(model, prefix)

    assert "conv1/weights has shape (3, 3, 1, 20), the model variable has (5, 5, 1, 20)" in str(error.value)
    assert "fc2/biases (model variable) is missing" in str(error.value)
    _assert_unchanged(model, before)


def test_an_sgd_checkpoint_loads_into_gradient_descent_with_its_step(tmp_path):
    prefix = _saved_initial(tmp_path, None)
    model = build_model({**PARAMS, "optimizer": "sgd"}, optimizer_flavour="exact")

    assert load_tf1_checkpoint(model, prefix) == 0
    assert int(model.optimizer.iterations.numpy()) == 0
    assert np.array_equal(np.asarray(model.get_layer("fc1").kernel), tf.train.load_checkpoint(prefix).get_tensor("fc1/weights"))


@pytest.fixture(scope="module")
def data_dir(mnist, tmp_path_factory):
    """The TF1 run's training images as .npy files, for the CLI."""
    directory = tmp_path_factory.mktemp("mnist")
    for name, array in (("x_train", mnist.x_train[: 2 * K * BATCH]), ("y_train", mnist.y_train[: 2 * K * BATCH]),
                        ("x_test", mnist.x_test[:64]), ("y_test", mnist.y_test[:64])):
        np.save(directory / f"{name}.npy", array)
    return directory


def test_cli_init_from_tf1_resumes_at_its_step_on_the_next_batches(tf1_run, data_dir, tmp_path, capsys):
    model_dir = tmp_path / "keras"
    argv = ["train", "--model-dir", str(model_dir), "--data-dir", str(data_dir), "--batch-size", str(BATCH),
            "--steps", str(2 * K), "--learning-rate", "0.001", "--dropout-rate", "0", "--no-shuffle",
            "--optimizer-flavour", "exact", "--init-from-tf1", tf1_run["at_k"]]

    assert main(argv) == 0

    assert f"steps {K} -> {2 * K} (done)" in capsys.readouterr().out
    model = build_model(PARAMS, optimizer_flavour="exact")
    restore(model, tf.train.latest_checkpoint(str(model_dir)))
    assert {name: diff for name, diff in _differences(model, tf1_run["at_2k"]).items() if diff != 0.0} == {}


def test_cli_init_from_a_checkpoint_of_another_optimizer_is_a_usage_error(data_dir, tmp_path, capsys):
    prefix = _saved_initial(tmp_path, lambda: tf.compat.v1.train.AdagradOptimizer(0.1))
    argv = ["train", "--model-dir", str(tmp_path / "keras"), "--data-dir", str(data_dir), "--steps", "2",
            "--init-from-tf1", prefix]

    assert main(argv) == 2

    error = capsys.readouterr().err
    assert "conv1/weights/Adam (Adam slot) is missing" in error and "AdagradOptimizer" in error
    assert not list((tmp_path / "keras").glob("model.ckpt-*"))
