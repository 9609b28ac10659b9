"""What the parity engine reads off any Keras model while it trains: its optimizers, its step's loss, its state.

Any model `fit` can train is accepted, not only a compiled functional one:

* **optimizers** — ``compile(optimizer=opt)``, Keras 2's ``compile(optimizer=[opt_a, opt_b])``
  (its `WideDeepModel` idiom: one optimizer per group of layers, applied in its own
  `train_step`), and optimizers kept as attributes of a model whose `train_step` applies
  them (Keras 3 has no optimizer list in `compile`: ``self.wide_optimizer`` /
  ``self.deep_optimizer``). `optimizers_of` lists them all, in that order;
* **the step's own loss** — ``logs["step_loss"]`` when the `train_step` returns it, else
  the last value the step passed through `compute_loss` (Keras 3, Keras 2's stock
  `train_step`) or Keras 2's ``compiled_loss`` (its documented custom `train_step`
  idiom, `WideDeepModel`). A `train_step` that does neither gets a `PairError` saying
  what to return, never a NaN loss with a wrong diagnosis (``logs["loss"]`` is a
  running mean, not the step's loss);
* **state** — the non-trainable weights (batch-norm moving statistics), compared with
  the model_fn's non-trainable model variables like the trainable ones.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow import keras

LOSS_NOT_REPORTED = (
    "the Keras model's train_step reports its loss neither through compute_loss (Keras 3, Keras 2's stock "
    "train_step), nor through compiled_loss (Keras 2), nor as logs['step_loss']: return the step's own loss "
    "from train_step, e.g. `return {'step_loss': loss, **metrics}` (logs['loss'] is a running mean, not the "
    "step's loss; docs/guide/parity.md '1. Write a pair file')"
)


def is_optimizer(value: Any) -> bool:
    """A Keras optimizer of any generation (Keras 3, Keras 2's new and legacy ones, a TF1-exact twin)."""
    return hasattr(value, "apply_gradients") and hasattr(value, "iterations") and not isinstance(value, type)


def optimizers_of(model: Any) -> list[Any]:
    """Every optimizer the model trains with: the compiled one(s), then those kept as attributes (Keras 3 idiom)."""
    found: list[Any] = []
    for value in [getattr(model, "optimizer", None), *vars(model).values()]:  # then in assignment order
        for item in value if isinstance(value, Sequence) and not isinstance(value, (str, bytes)) else [value]:
            if is_optimizer(item) and all(item is not known for known in found):
                found.append(item)
    return found


def optimizer_class(optimizer: Any) -> str:
    """`module.Class` of an optimizer (a TF1-exact twin lives in `modern.optimizers`)."""
    kind = type(optimizer)
    return f"{kind.__module__}.{kind.__qualname__}"


def start_step(model: Any) -> int:
    """The step the model starts `fit` at: its (first) optimizer's iteration counter, 0 without one."""
    optimizers = optimizers_of(model)
    return int(np.asarray(optimizers[0].iterations)) if optimizers else 0


class StepLoss:
    """Each step's own loss, whatever `train_step` the model has (see the module docstring)."""

    def __init__(self, model: Any) -> None:
        self.value = tf.Variable(float("nan"), dtype=tf.float32, trainable=False, name="parity_step_loss")
        self.calls = tf.Variable(0, dtype=tf.int64, trainable=False, name="parity_step_loss_calls")
        self._seen = 0
        self._wrap_compute_loss(model)
        self._wrap_compiled_loss(model)

    def _keep(self, loss: Any) -> None:
        if isinstance(loss, (tf.Tensor, tf.Variable)) or np.ndim(loss) == 0:
            self.value.assign(tf.cast(tf.reduce_sum(loss), tf.float32))
            self.calls.assign_add(1)

    def _wrap_compute_loss(self, model: Any) -> None:
        """Wrap once per model; each wrapper hands the loss to the model's current `StepLoss`."""
        object.__setattr__(model, "_parity_step_loss", self)
        original = getattr(model, "compute_loss", None)
        if original is None or getattr(original, "_parity_wrapper", False):
            return

        def compute_loss(*args: Any, **kwargs: Any) -> Any:
            loss = original(*args, **kwargs)
            model._parity_step_loss._keep(loss)
            return loss

        compute_loss.__dict__["_parity_wrapper"] = True  # read back with getattr above: wrap once
        model.compute_loss = compute_loss

    def _wrap_compiled_loss(self, model: Any) -> None:
        """Keras 2: a custom `train_step` calls ``self.compiled_loss(y, y_pred, ...)`` (its guide's idiom)."""
        container = getattr(model, "__dict__", {}).get("compiled_loss")
        if container is None or not callable(container) or getattr(container, "_parity_wrapped", False):
            return
        base = type(container)

        def __call__(inner: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N807
            loss = base.__call__(inner, *args, **kwargs)
            model._parity_step_loss._keep(loss)
            return loss

        container.__class__ = type(base.__name__, (base,), {"__call__": __call__, "_parity_wrapped": True})

    def read(self, logs: dict[str, Any]) -> float:
        """This step's loss; a `PairError`-worthy message (`LOSS_NOT_REPORTED`) when the model gives none."""
        if "step_loss" in logs:
            return float(np.asarray(logs["step_loss"]))
        calls = int(self.calls.numpy())
        if calls == self._seen:
            raise LossNotReported(LOSS_NOT_REPORTED)
        self._seen = calls
        return float(self.value.numpy())


class LossNotReported(RuntimeError):
    """The model's `train_step` gives the engine no way to read the step's own loss."""


def state_variables(model: Any) -> list[Any]:
    """The model's non-trainable floating-point weights (batch-norm moving statistics), in creation order.

    A metric held as an attribute of a subclassed model (``self.loss_tracker = keras.metrics.Mean()``) puts its
    running totals among the model's non-trainable weights on Keras 2; they are bookkeeping, not state TF1 has
    a twin of, and left in they would make every state mapping fail.
    """
    metrics = list(getattr(model, "metrics", None) or [])  # those `model.metrics` lists, then any held as attribute
    metrics += [module for module in getattr(model, "submodules", ()) if isinstance(module, keras.metrics.Metric)]
    bookkeeping = {id(variable) for metric in metrics for variable in metric.variables}
    return [variable for variable in model.non_trainable_weights
            if tf.as_dtype(variable.dtype).is_floating and id(variable) not in bookkeeping]
