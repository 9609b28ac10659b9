"""What the engine reads off any Keras model (Keras 2 and Keras 3): its optimizers and each step's own loss.

The Keras 3 idiom for two optimizers (no optimizer list in `compile`): a subclassed model keeps the second as
an attribute and its `train_step` applies each to its own layers.
"""
from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from migrate.parity.sides.keras_training import (  # noqa: E402
    LossNotReported,
    StepLoss,
    optimizers_of,
    start_step,
    state_variables,
)

keras = tf.keras


class TwoOptimizers(keras.Model):
    """A wide and a deep layer, each trained by its own optimizer; `quiet` keeps the loss to itself."""

    def __init__(self, quiet: bool = False) -> None:
        super().__init__()
        self.quiet = quiet
        self.wide, self.deep = keras.layers.Dense(1), keras.layers.Dense(1)
        self.norm = keras.layers.BatchNormalization()
        self.wide_optimizer, self.deep_optimizer = keras.optimizers.SGD(0.1), keras.optimizers.SGD(0.2)

    def call(self, inputs, training=False):
        return self.wide(inputs) + self.deep(self.norm(inputs, training=training))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape(persistent=True) as tape:
            prediction = self(x, training=True)
            loss = (tf.reduce_mean(tf.square(prediction - y)) if self.quiet
                    else self.compute_loss(x=x, y=y, y_pred=prediction))
        for optimizer, layers in ((self.wide_optimizer, [self.wide]), (self.deep_optimizer, [self.deep, self.norm])):
            variables = [v for layer in layers for v in layer.trainable_variables]
            optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return {"examples": tf.shape(x)[0]}  # Keras 3 needs at least one output


def model(quiet: bool = False) -> TwoOptimizers:
    built = TwoOptimizers(quiet)
    built.compile(optimizer=built.wide_optimizer, loss="mse")
    built(np.zeros((1, 3), np.float32))
    return built


class Losses(keras.callbacks.Callback):
    def __init__(self, read):
        super().__init__()
        self.read, self.values = read, []

    def on_train_batch_end(self, batch, logs=None):
        self.values.append(self.read(logs or {}))


DATA = (np.arange(24, dtype=np.float32).reshape(8, 3) / 10, np.ones((8, 1), np.float32))


def test_both_optimizers_of_a_subclassed_model_are_found_once_each():
    built = model()
    assert optimizers_of(built) == [built.wide_optimizer, built.deep_optimizer]
    assert start_step(built) == 0
    assert [v.name.split("/")[-1].split(":")[0] for v in state_variables(built)] == ["moving_mean", "moving_variance"]


def test_the_step_loss_is_read_through_compute_loss_in_a_custom_train_step():
    built = model()
    expected = float(np.mean(np.square(built(DATA[0][:4], training=True).numpy() - DATA[1][:4])))
    recorder = Losses(StepLoss(built).read)
    built.fit(*DATA, batch_size=4, epochs=1, callbacks=[recorder], verbose=0, shuffle=False)
    assert len(recorder.values) == 2 and recorder.values[0] == pytest.approx(expected, rel=1e-5)
    assert recorder.values[0] != recorder.values[1]


def test_a_train_step_that_reports_no_loss_says_what_to_return():
    built = model(quiet=True)
    recorder = Losses(StepLoss(built).read)
    with pytest.raises(LossNotReported, match=r"return \{'step_loss': loss, \*\*metrics\}"):
        built.fit(*DATA, batch_size=4, epochs=1, callbacks=[recorder], verbose=0, shuffle=False)


def test_an_output_transform_is_a_known_name_or_a_function():
    from migrate.parity.sides.output_transforms import UnknownTransform, resolve

    name, softmax = resolve("softmax")
    assert name == "softmax" and np.allclose(np.sum(softmax(tf.constant([[1.0, 2.0]])).numpy()), 1.0)
    assert resolve(tf.math.tanh)[0] == "tanh" and resolve(None) is None
    with pytest.raises(UnknownTransform, match="OUTPUT_TRANSFORM 'argmax' is not one of softmax, sigmoid"):
        resolve("argmax")


def test_an_output_transform_applies_to_each_float_output_of_a_dict():
    """A ported model returns a dict (`price`, or `logits` beside `classes`): the forward stage's search for a known
    transform applies it to each floating-point output and keeps the others, where it used to raise on the dict."""
    from migrate.parity.sides.output_transforms import on_each_output

    outputs = {"logits": tf.constant([[0.0, 0.0]]), "classes": tf.constant([1], tf.int64)}
    applied = on_each_output(tf.nn.softmax)(outputs)
    assert applied["logits"].numpy().tolist() == [[0.5, 0.5]] and applied["classes"].numpy().tolist() == [1]
    assert on_each_output(None)(outputs) is outputs
