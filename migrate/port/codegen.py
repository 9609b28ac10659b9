"""The text of the generated files: keras_model.py (the model, its loss and optimizer) and pair.py."""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from migrate.port.graph import LayerSpec

MODEL_NAME = "ported"
"""The Keras model's name: its weights' paths are ``ported/<layer>/<weight>``."""


RAW_VARIABLES_CLASS = '''class TF1Variables(keras.layers.Layer):
    """TF1 variables that ops without a layer twin read (flagged "raw" in PORT.md): one weight each, in `tf1`.

    Called once at the start of the model's `forward` (it returns its input), so its weights are created and
    named under the model like every other layer's.
    """

    def __init__(self, specs: dict, **kwargs) -> None:
        super().__init__(**kwargs)
        self.specs = specs

    def build(self, input_shape=None) -> None:
        self.tf1 = {}
        for tf1_name, (shape, initial) in self.specs.items():
            initializer = keras.initializers.Constant(initial) if initial is not None else "zeros"
            self.tf1[tf1_name] = self.add_weight(name=tf1_name.replace("/", "__"), shape=shape, initializer=initializer)
        self.built = True

    def call(self, inputs):
        return inputs
'''


def raw_variables_layer(specs: dict) -> LayerSpec:
    """The `TF1Variables` layer holding `specs` (TF1 name → (shape, initial constant or None))."""
    weights = {name: name.replace("/", "__") for name in specs}
    return LayerSpec("tf1_variables", f"TF1Variables({specs!r}, name='tf1_variables')", weights, "tf1_variables",
                     module_code=RAW_VARIABLES_CLASS)


@dataclass
class MetricCode:
    """An EVAL metric in test_step: ``self.<attribute> = <constructor>``, updated with `arguments` after `lines`."""

    name: str
    attribute: str
    constructor: str
    lines: list[str]
    arguments: list[str]


@dataclass
class ModelCode:
    """What keras_model.py holds, as the porter found it."""

    origin: str
    layers: list[LayerSpec]
    call_lines: list[str]
    outputs: dict[str, str]
    loss_lines: list[str]
    loss_expression: str
    optimizers: dict[str | None, str]
    """Optimizer constructor per value of the selecting param (one entry with key None when there is no choice)."""
    optimizer_param: str | None
    twin_classes: list[str]
    sample_features: str
    features_doc: str = ""
    schedule_lines: list[str] = field(default_factory=list)
    prediction: str | None = None
    """The output `call` returns when the model_fn predicts one tensor; else `call` returns `prediction_keys`."""
    prediction_keys: list[str] = field(default_factory=list)
    metrics: list[MetricCode] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _indent(lines: list[str], depth: int) -> str:
    return "\n".join(textwrap.indent(line, " " * 4 * depth) for line in lines)


def _dict_literal(items: dict[str, str], depth: int) -> str:
    inner = "".join(f"{' ' * 4 * (depth + 1)}{key!r}: {value},\n" for key, value in items.items())
    return "{\n" + inner + " " * 4 * depth + "}"


def keras_model_text(code: ModelCode) -> str:
    layers = list({layer.attribute: layer for layer in code.layers}.values())
    clashing = {layer.attribute for layer in code.layers if layer.constructor != next(
        other.constructor for other in layers if other.attribute == layer.attribute)}
    if clashing:
        raise ValueError(f"two different layers were both named {sorted(clashing)}: a bug of migrate port")
    init = [f"self.{layer.attribute} = {layer.constructor}" for layer in layers]
    init += [f"self.{metric.attribute} = {metric.constructor}" for metric in code.metrics]
    metric_lines = [line for metric in code.metrics for line in
                    [*metric.lines, f"self.{metric.attribute}.update_state({', '.join(metric.arguments)})"]]
    metric_results = "".join(f", {metric.name!r}: self.{metric.attribute}.result()" for metric in code.metrics)
    tracked = ", ".join(["self.loss_tracker", *(f"self.{metric.attribute}" for metric in code.metrics)])
    if code.optimizer_param is None:
        optimizer_body = [f"return {code.optimizers[None]}"]
    else:
        optimizer_body = [f"name = params[{code.optimizer_param!r}]"]
        for value, constructor in code.optimizers.items():
            optimizer_body += [f"if name == {value!r}:", f"    return {constructor}"]
        choices = ", ".join(repr(value) for value in code.optimizers)
        optimizer_body.append(f"raise ValueError(f\"params[{code.optimizer_param!r}] is {{name!r}}; the port knows {choices}\")")
    imports = ", ".join(sorted(set(code.twin_classes)))
    extra_imports = "".join(f"{line}\n" for line in sorted({line for layer in layers for line in layer.imports}))
    module_code = "".join(f"\n\n{layer.module_code}" for layer in layers if layer.module_code)
    call_body = (f"return self.forward(features, training)[{code.prediction!r}]" if code.prediction
                 else "outputs = self.forward(features, training)\n        return {key: outputs[key] for key in "
                 f"{tuple(code.prediction_keys)!r}}}")
    schedule_lines = (["params = self.params"] if any("params[" in line for line in code.schedule_lines) else []) \
        + code.schedule_lines
    schedule = "" if not code.schedule_lines else f'''

class TF1LearningRate(keras.optimizers.schedules.LearningRateSchedule):
    """The learning rate the model_fn computes from the global step (Keras passes `optimizer.iterations`)."""

    def __init__(self, params: dict) -> None:
        self.params = params

    def __call__(self, step):
{_indent(schedule_lines, 2)}

    def get_config(self) -> dict:
        return {{"params": dict(self.params)}}
'''
    return f'''"""Generated by `migrate port` from {code.origin}: the model_fn's network, loss and optimizer in Keras.

Layer names are the TF1 variable scopes; the loss is the TF1 loss op for op
and the optimizer the TF1-exact twin from `modern.optimizers`, so with the
same initial weights and batches it trains as the Estimator did (PORT.md
holds the proof). Runs on Keras 3 (TF 2.21) and Keras 2.15.
"""
from __future__ import annotations

import tensorflow as tf
from tensorflow import keras

{extra_imports}from modern.optimizers import {imports}
{schedule}{module_code}

class PortedModel(keras.Model):
    """The network of the model_fn; `train_step` reports the step's own loss (`step_loss`) and `global_step`."""

    def __init__(self, params: dict, **kwargs) -> None:
        super().__init__(**kwargs)
{_indent(init, 2)}
        self.loss_tracker = keras.metrics.Mean(name="loss")

    def forward(self, features, training=None) -> dict:
        """Every output: the PREDICT-mode predictions and what the loss reads."""
{_indent(code.call_lines, 2)}
        return {_dict_literal(code.outputs, 2)}

    def call(self, features, training=None):
        {call_body}

    def tf1_loss(self, labels, outputs):
        """The TRAIN-mode loss of the model_fn, op for op."""
{_indent(code.loss_lines, 2)}
        return {code.loss_expression}

    @property
    def metrics(self) -> list:
        return [{tracked}]

    def train_step(self, data):
        features, labels = data
        with tf.GradientTape() as tape:
            outputs = self.forward(features, training=True)
            loss = self.tf1_loss(labels, outputs)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {{"loss": self.loss_tracker.result(), "step_loss": loss, "global_step": tf.identity(self.optimizer.iterations)}}

    def test_step(self, data):
        features, labels = data
        outputs = self.forward(features, training=False)
        loss = self.tf1_loss(labels, outputs)
        self.loss_tracker.update_state(loss)
{_indent(metric_lines, 2)}
        return {{"loss": self.loss_tracker.result(){metric_results}}}


def make_optimizer(params: dict) -> keras.optimizers.Optimizer:
    """The model_fn's TF1 optimizer as its TF1-exact twin, with the same hyperparameters."""
{_indent(optimizer_body, 1)}


def build_model(params: dict) -> keras.Model:
    """The compiled, built model (optimizer variables created), ready for `fit`."""
    model = PortedModel(params, name={MODEL_NAME!r})
    model({code.sample_features}, training=False)
    optimizer = make_optimizer(params)
    model.compile(optimizer=optimizer)
    optimizer.build(model.trainable_variables)
    return model
'''


@dataclass
class PairCode:
    origin: str
    sources: dict[str, tuple[str, str | None]]
    """Local name → (module name or file path, root directory for a module)."""
    bindings: dict[str, str]
    params: dict
    variable_map: dict[str, str]
    input_code: str
    uses_input_arrays: bool
    values: dict = field(default_factory=dict)
    params_source: str | None = None
    """Where the pair file's own PARAMS are, when they hold values no literal spells (feature columns)."""


def _params_literal(params: dict) -> str:
    lines = "".join(f"    {key!r}: {value!r},\n" for key, value in params.items())
    flavour = '    "optimizer_flavour": "exact",  # the Keras side trains with the TF1-exact twin: held to bit-identity\n'
    return "{\n" + lines + ("" if "optimizer_flavour" in params else flavour) + "}"


def pair_text(code: PairCode) -> str:
    sources = "\n".join(
        f"{name} = source_module({spec!r}" + (f", {root!r})" if root else ")") for name, (spec, root) in code.sources.items())
    bindings = "\n".join(f"{name} = {value}" for name, value in code.bindings.items())
    runtime = "gather_batches, input_arrays, row_count, source_module" if code.uses_input_arrays else "source_module"
    tf_import = "import tensorflow as tf\n\n" if code.uses_input_arrays else ""
    values = "".join(f"{name} = {value!r}\n" for name, value in code.values.items())
    return f'''"""Generated by `migrate port` from {code.origin}: the user's model_fn and input, and their Keras port.

`migrate parity --pair {{this file}}` runs it as it is; PORT.md says what became what.
"""
from __future__ import annotations

from pathlib import Path

{tf_import}from migrate.port.runtime import {runtime}

HERE = Path(__file__).resolve().parent
{sources}
_keras_model = source_module(str(HERE / "keras_model.py"))

{bindings}
PARAMS = {_params_literal(code.params) if not code.params_source else "{**" + code.params_source + ", **" + _params_literal(code.params) + "}"}
{values}variable_map = {_dict_literal({key: repr(value) for key, value in code.variable_map.items()}, 0)}
"""TF1 variable → Keras weight: the layers are named after the TF1 variable scopes."""


def build_model(params):
    return _keras_model.build_model(params)


{code.input_code}'''


def module_root(module_name: str, module_file: str) -> str:
    """The directory `module_name` is imported from (``legacy.model`` in ``/repo/legacy/model.py`` → ``/repo``)."""
    path = Path(module_file).resolve()
    depth = module_name.count(".") + (1 if path.name != "__init__.py" else 2)
    return str(path.parents[depth - 1])
