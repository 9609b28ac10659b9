"""`modern.model`: the legacy math bit for bit, the step loss, the TF1 hyperparameters."""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from tensorflow import keras

from modern.model import build_model
from modern.optimizers import Adam, GradientDescent
from modern.weights import load_legacy_checkpoint
from tests.modern.tf1_graph import build_tf1_graph


class StepLosses(keras.callbacks.Callback):
    def __init__(self) -> None:
        super().__init__()
        self.step_losses: list[float] = []
        self.running_losses: list[float] = []
        self.global_steps: list[int] = []

    def on_train_batch_end(self, batch, logs=None):
        self.step_losses.append(float(logs["step_loss"]))
        self.running_losses.append(float(logs["loss"]))
        self.global_steps.append(int(logs["global_step"]))


def test_sgd_losses_are_bit_identical_to_a_tf1_graph_with_the_same_weights(mnist, tmp_path):
    graph = build_tf1_graph(learning_rate=0.1)
    with graph.graph.as_default():
        prefix = graph.saver.save(graph.session, str(tmp_path / "model.ckpt"))
    images, labels = mnist.x_train[:1024], mnist.y_train[:1024].astype(np.int64)
    batches = [(images[i: i + 128], labels[i: i + 128]) for i in range(0, 1024, 128)]
    tf1_losses = graph.sgd_losses(batches)

    model = build_model({"optimizer": "sgd", "learning_rate": 0.1, "dropout_rate": 0.0})
    load_legacy_checkpoint(model, prefix)
    recorder = StepLosses()
    dataset = tf.data.Dataset.from_tensor_slices((images, labels)).batch(128)
    model.fit(dataset, epochs=1, callbacks=[recorder], verbose=0, shuffle=False)

    assert recorder.step_losses == [float(loss) for loss in tf1_losses]
    assert recorder.global_steps == list(range(1, 9))
    assert recorder.running_losses[-1] == pytest.approx(np.mean(recorder.step_losses), rel=1e-6)
    assert recorder.running_losses[-1] != recorder.step_losses[-1]


def test_optimizers_use_the_tf1_hyperparameters():
    adam = build_model(optimizer_flavour="native").optimizer
    assert float(adam.epsilon) == 1e-8 and float(adam.beta_1) == 0.9 and float(adam.beta_2) == 0.999
    assert float(adam.learning_rate.numpy()) == pytest.approx(1e-3)
    sgd = build_model({"optimizer": "sgd", "learning_rate": 0.5}, optimizer_flavour="native").optimizer
    assert isinstance(sgd, keras.optimizers.SGD) and float(sgd.momentum) == 0.0


def test_the_default_optimizers_are_the_tf1_exact_twins():
    adam = build_model().optimizer
    assert isinstance(adam, Adam) and (adam.beta1, adam.beta2, adam.epsilon) == (0.9, 0.999, 1e-8)
    assert isinstance(build_model({"optimizer": "sgd"}).optimizer, GradientDescent)
    assert build_model({"adam_epsilon": 1e-7}).optimizer.epsilon == 1e-7


def test_layer_names_and_kernel_shapes_match_the_legacy_variables():
    model = build_model()
    shapes = {name: tuple(model.get_layer(name).kernel.shape) for name in ("conv1", "conv2", "fc1", "fc2", "logits")}
    assert shapes == {"conv1": (5, 5, 1, 20), "conv2": (5, 5, 20, 40), "fc1": (640, 256), "fc2": (256, 256), "logits": (256, 10)}


@pytest.mark.parametrize(
    "params, message",
    [
        pytest.param({"optimizer": "rmsprop"}, "expected one of", id="unknown optimizer"),
        pytest.param({"learnig_rate": 0.1}, "unknown params", id="misspelt key"),
    ],
)
def test_bad_params_raise(params, message):
    with pytest.raises(ValueError, match=message):
        build_model(params)
