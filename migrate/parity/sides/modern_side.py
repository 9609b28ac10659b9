"""The modern side of any pair: the user's compiled Keras model under `fit` (TF 2.15 / Keras 2 or TF 2.21 / Keras 3).

`ModernSide` builds the model from the pair, lists its trainable weights for
the mapping, takes the legacy initial values, runs the forward pass and
trains with the pair's callbacks followed by `LossRecorder`. Any model `fit`
trains is accepted (optimizer lists, its own `train_step`, subclassed, batch-norm
state): what is read off it, and how, is `keras_training`'s.
"""
from __future__ import annotations

import importlib.metadata
import platform
from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow import keras

from migrate.core.arrays import Array
from migrate.core.keras_weights import weight_path, weight_records
from migrate.core.mapping import Match, Weight, to_keras_layout
from migrate.core.side_trace import SideTrace
from migrate.parity.options import Progress
from migrate.parity.pair import Pair, PairError
from migrate.parity.sides.keras_training import (
    LossNotReported,
    StepLoss,
    optimizer_class,
    optimizers_of,
    start_step,
    state_variables,
)
from migrate.parity.sides.output_transforms import on_each_output
from migrate.parity.sides.seeding import seed_everything
from migrate.parity.sides.step_recorder import Digest, Snapshots, StepRecorder
from migrate.parity.stages import LAYER_INPUT_ROWS, constant_value


def versions() -> dict[str, str]:
    keras_version = getattr(keras, "__version__", None) or importlib.metadata.version("keras")
    return {"python": platform.python_version(), "tensorflow": tf.__version__, "keras": keras_version,
            "numpy": np.__version__}


def to_numpy(value: Any) -> Any:
    return tf.nest.map_structure(lambda item: np.asarray(item), value)


class LossRecorder(keras.callbacks.Callback):
    """Records the `fit` run through a `StepRecorder`, in the TF1 vocabulary: each step's own loss (`step_loss` reads
    it from the logs), events, the weights after the first step that changes a `trainable` one, snapshots.

    `snapshot(model)` gives every tracked weight (trainable and state) by name.
    """

    model: Any  # set by `fit` (an annotation only: Keras' own attribute or property stays)

    def __init__(self, recorder: StepRecorder, step_loss: Callable[[dict[str, Any]], float],
                 snapshot: Callable[[Any], dict[str, Array]], trainable: list[str]) -> None:
        super().__init__()
        self.recorder, self.step_loss, self.snapshot, self.trainable = recorder, step_loss, snapshot, trainable

    def on_train_begin(self, logs: dict[str, Any] | None = None) -> None:
        self.recorder.begin()
        self.recorder.session_created(start_step(self.model), self.snapshot(self.model), self.trainable)

    def on_train_batch_begin(self, batch: int, logs: dict[str, Any] | None = None) -> None:
        self.recorder.before_run()

    def on_train_batch_end(self, batch: int, logs: dict[str, Any] | None = None) -> None:
        self.recorder.after_run(self.step_loss(logs or {}), lambda: self.snapshot(self.model), self.model.stop_training)

    def on_train_end(self, logs: dict[str, Any] | None = None) -> None:
        self.recorder.end()


class ModernSide:
    """One Keras model built from the pair, with the legacy initial weights once `transfer` ran."""

    def __init__(self, pair: Pair, params: dict[str, Any], seed: int) -> None:
        self.pair, self.params, self.seed = pair, params, seed
        self.state_matches: list[Match] = []
        self.model = self.build()

    def build(self) -> keras.Model:
        seed_everything(self.seed)
        model = self.pair.call("build_model", self.params)
        if not isinstance(model, keras.Model):
            raise PairError(f"{self.pair.origin}: build_model(params) returned {type(model).__name__}, not a keras.Model.")
        if not optimizers_of(model):
            raise PairError(f"{self.pair.origin}: build_model(params) must return a compiled model (call model.compile).")
        return model

    def ensure_built(self, features: Any, model: keras.Model | None = None) -> None:
        model = model or self.model
        self._first_features = features
        if not model.built or not model.trainable_weights:
            model(features, training=False)
        if not hasattr(self, "names"):
            self.names = [weight.name for weight in self.weights]
            self.state_names = [weight.name for weight in self.state]

    @property
    def weights(self) -> list[Weight]:
        """The trainable weights as model.trainable_weights lists them, with unique names, layer classes, creation ranks.

        `names` keeps the first build's names (a rebuilt model's paths may differ).
        """
        return weight_records(self.model, self.model.trainable_weights)

    @property
    def state(self) -> list[Weight]:
        """The non-trainable weights (batch-norm moving statistics) in creation order, as `weights` lists the others."""
        return weight_records(self.model, state_variables(self.model))

    def snapshot(self, model: keras.Model) -> dict[str, Array]:
        """Every trainable and state weight of `model`, by the first build's names."""
        values = {name: variable.numpy() for name, variable in zip(self.names, model.trainable_weights)}
        values.update({name: variable.numpy() for name, variable in zip(self.state_names, state_variables(model))})
        return values

    def first_batch(self) -> tuple[Any, Any]:
        """The (features, labels) of `train_dataset`'s first batch, as numpy arrays."""
        dataset = self.pair.call("train_dataset", self.params)
        if not isinstance(dataset, tf.data.Dataset):
            raise PairError(f"{self.pair.origin}: train_dataset(params) returned {type(dataset).__name__}, not a tf.data.Dataset.")
        try:
            batch = next(iter(dataset))
        except StopIteration as error:
            raise PairError(f"{self.pair.origin}: train_dataset(params) gives no batch at all.") from error
        if not (isinstance(batch, (tuple, list)) and len(batch) >= 2):
            raise PairError(f"{self.pair.origin}: train_dataset(params) must give (features, labels) batches.")
        return to_numpy(batch[0]), to_numpy(batch[1])

    def transfer(self, matches: list[Match], initial_weights: dict[str, Array], model: keras.Model | None = None) -> None:
        """Assign the TF1 initial values; weights are found by position, so a rebuilt model (new names) works too."""
        model = model or self.model
        if model is not self.model:
            self.ensure_built(self._first_features, model)
        for names, variables, rows in ((self.names, model.trainable_weights, matches),
                                       (self.state_names, state_variables(model), self.state_matches)):
            position = {name: index for index, name in enumerate(names)}
            for name, value in to_keras_layout(rows, initial_weights).items():
                variable = variables[position[name]]
                variable.assign(np.asarray(value).astype(tf.as_dtype(variable.dtype).as_numpy_dtype))

    def forward(self, features: Any, transform: Callable[[Any], Any] | None = None) -> Any:
        """Inference outputs, computed in a `tf.function` like `fit`/`predict` do (eager kernels can differ in the
        last bit), through `transform` (an output transform, e.g. softmax) when given."""
        apply = on_each_output(transform)
        return to_numpy(tf.function(lambda inputs: apply(self.model(inputs, training=False)))(features))

    def layer_inputs(self, features: Any) -> dict[str, Array]:
        """Keras weight path → its layer's input on `features`, for the kernels (rank ≥ 2) of a functional model.

        Empty for a subclassed model (its layers have no symbolic input) or a layer called more than once.
        """
        owners: dict[str, Any] = {}
        for layer in self.model.layers:
            for weight in layer.trainable_weights:
                if len(weight.shape) >= 2:
                    owners.setdefault(weight_path(weight), layer)
        paths, tensors = [], []
        for path, layer in owners.items():
            try:
                tensor = layer.input
            except (AttributeError, ValueError, RuntimeError):
                continue
            if not isinstance(tensor, (list, tuple, dict)):  # a layer with one input only
                paths.append(path)
                tensors.append(tensor)
        if not tensors:
            return {}
        try:
            probe = keras.Model(self.model.inputs, tensors)
            values = tf.function(lambda inputs: probe(inputs, training=False))(features)
        except (AttributeError, ValueError, TypeError):
            return {}
        values = values if isinstance(values, (list, tuple)) else [values]
        return {path: np.asarray(value)[:LAYER_INPUT_ROWS] for path, value in zip(paths, values)}

    def optimizer_names(self) -> list[str]:
        """`module.Class` of every optimizer the model trains with (a TF1-exact twin lives in `modern.optimizers`)."""
        return [optimizer_class(optimizer) for optimizer in optimizers_of(self.model)]

    def initial_constants(self) -> dict[str, float | None]:
        return {name: constant_value(variable.numpy()) for name, variable in zip(self.names, self.model.trainable_weights)}

    def train(self, steps: int, progress: Progress, trace: SideTrace, capture: tuple[int, ...] = (),
              model: keras.Model | None = None, digest: Digest | None = None) -> Snapshots:
        """`fit` for `steps` steps with the pair's callbacks, the run recorded into `trace` (each step's loss, the
        events, the weights after the first step that updates them); give the snapshots after each step in `capture`."""
        model = model or self.model
        callbacks = list(self.pair.call("modern_callbacks", self.params)) if self.pair.has("modern_callbacks") else []
        recorder = StepRecorder("modern", progress, steps, capture, digest)
        try:
            model.fit(self.pair.call("train_dataset", self.params), epochs=1, steps_per_epoch=steps,
                      callbacks=[*callbacks, LossRecorder(recorder, StepLoss(model).read, self.snapshot, self.names)],
                      verbose=0)
        except LossNotReported as error:
            raise PairError(f"{self.pair.origin}: {error}.") from error
        return recorder.fill(trace)

    def evaluate(self) -> dict[str, float]:
        metrics = self.model.evaluate(self.pair.call("eval_dataset", self.params), verbose=0, return_dict=True)
        return {key: float(value) for key, value in metrics.items() if np.ndim(value) == 0}

    def fresh_model(self, matches: list[Match], initial_weights: dict[str, Array]) -> Callable[[], keras.Model]:
        """A factory of new models holding the initial weights (for the pair's own event scenarios)."""

        def make() -> keras.Model:
            model = self.build()
            self.transfer(matches, initial_weights, model)
            return model

        return make
