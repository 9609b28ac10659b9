"""What follows a kernel op in the layer idioms: a bias add of a rank-1 variable, then an activation."""
from __future__ import annotations

from dataclasses import dataclass

ACTIVATIONS = {"Relu": "relu", "Relu6": "relu6", "Elu": "elu", "Selu": "selu", "Sigmoid": "sigmoid", "Tanh": "tanh",
               "Softplus": "softplus", "Softsign": "softsign"}
"""Op type → the Keras activation name that computes the same op."""


@dataclass
class Tail:
    ops: list
    output: object
    bias: str | None
    activation: str | None


def bias_and_activation(view, output, units: int) -> Tail:
    """The bias add (a rank-1 variable of `units`) and activation that follow `output`, if only they read it."""
    ops, bias, activation = [], None, None
    consumer = view.sole_consumer(output)
    if consumer is not None and consumer.type in ("BiasAdd", "Add", "AddV2"):
        other = [tensor for tensor in consumer.inputs if tensor is not output]
        variable = view.variable(other[0]) if len(other) == 1 else None
        if variable is not None and view.variable_shape(variable) == [units] and consumer.inputs[0] is output:
            ops.append(consumer)
            bias, output = variable, consumer.outputs[0]
    consumer = view.sole_consumer(output)
    if consumer is not None and consumer.type in ACTIVATIONS:
        ops.append(consumer)
        activation, output = ACTIVATIONS[consumer.type], consumer.outputs[0]
    return Tail(ops, output, bias, activation)


def bias_initializer(view, bias: str | None) -> str | None:
    """``keras.initializers.Constant(c)`` for a TF1 bias that starts at a constant c other than Keras' zeros."""
    if bias is None:
        return None
    value = view.initial_constant(bias)
    return None if value is None or value == 0.0 else f"keras.initializers.Constant({view.spell(value)})"


def layer_name(variable: str) -> str:
    """A layer's name from its kernel's TF1 name: the variable scope (``fc1/weights`` → ``fc1``)."""
    scope, _, name = variable.rpartition("/")
    return scope or name


def keyword_arguments(**given) -> str:
    return ", ".join(f"{key}={value}" for key, value in given.items() if value is not None)
