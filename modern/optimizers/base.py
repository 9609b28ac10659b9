"""What every TF1-exact optimizer shares: slots, hyperparameter casts and the Keras 2/3 bridge.

Why the optimizers in this package call TensorFlow's fused training kernels
(``tf.raw_ops.ResourceApplyAdam`` …) instead of spelling the update out with
tensor ops: those kernels *are* what ``tf.compat.v1.train.*Optimizer`` runs.
Composing the same formula from ``tf.math`` ops rounds differently (the fused
CPU kernel evaluates one Eigen expression per slot), and Keras' native
optimizers also use other formulas (epsilon inside or outside the square
root, bias correction from ``pow(beta, t)`` instead of running products,
zero- instead of one-initialised RMS slots). Calling the kernel with the
inputs TF1 gives it — hyperparameters converted to float32 tensors and cast
to the gradient's dtype, slots initialised to TF1's values, Adam's
``beta1_power``/``beta2_power`` updated *after* all variables — makes every
variable and slot bit-identical to the TF1 run.

Call order of one `apply_gradients` (Keras 2.15) / `apply` (Keras 3):

    build(variables)                 # once: slots (and non-slot variables)
    for gradient, variable in pairs:
        update_step(gradient, variable, learning_rate)   # one fused kernel
    finish_step()                    # after every variable: Adam's beta powers
    iterations += 1                  # Keras' counter = TF1's global_step

Sparse gradients (`tf.IndexedSlices`, from embedding lookups and gathers)
take TF1's sparse path where the twin defines `apply_sparse`: the rows are
summed per index first exactly as TF1's `_deduplicate_indexed_slices` does
(``unique`` + ``unsorted_segment_sum``), except for gradient descent, which
TF1 scatter-adds row by row, duplicates included; then TF1's sparse kernel
(or, for Adam, TF1's composed sparse update) runs. Keras 2.15 sums
duplicate rows itself before `update_step`; the twins turn that off, so each
one decides as TF1 does. A twin without `apply_sparse` densifies the rows
and applies its dense kernel (exact only where TF1 would do the same). On GPU,
Keras 2.15 XLA-compiles update steps unless ``jit_compile=False``; the
exact optimizers pass ``jit_compile=False`` there, as TF1 never compiled them.
They are tested under the default (single-device) strategy; Adam's
`finish_step` assigns its beta powers in replica context, which a
`tf.distribute` strategy with mirrored variables refuses.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import tensorflow as tf
from tensorflow import keras

KERAS_3 = hasattr(keras, "ops")  # Keras 2.15 and tf-keras have no keras.ops


@dataclass(frozen=True)
class Slot:
    """One per-variable slot: its Keras name, TF1's slot name and initial fill value.

    `tf1_suffix_index` is the position among the slots TF1 creates *under the
    optimizer's name* for one variable: the first becomes ``<var>/<Name>``,
    the next ``<var>/<Name>_1`` and so on (what a TF1 checkpoint holds).
    """

    name: str
    fill: float = 0.0
    tf1_suffix_index: int = 0


def variable_index(optimizer: keras.optimizers.Optimizer, variable: Any) -> int:
    """Position of `variable` in the list the optimizer was built on (Keras 2.15 and 3)."""
    if KERAS_3:
        return optimizer._get_variable_index(variable)
    return optimizer._index_dict[optimizer._var_key(variable)]


def handle_of(variable: Any) -> tf.Tensor:
    """The resource handle a training kernel updates in place (tf.Variable or Keras 3 Variable)."""
    return variable.handle


def hyper(value: Any, dtype: tf.DType) -> tf.Tensor:
    """A hyperparameter as TF1 feeds it to the kernel: converted to a tensor, then cast.

    TF1's `_prepare` calls ``ops.convert_to_tensor`` on the Python value (a
    Python float becomes float32) and the apply method casts that to the
    gradient's dtype; doing the same keeps float64 variables exact too.
    """
    if callable(value) and not isinstance(value, (tf.Tensor, tf.Variable)):
        value = value()
    return tf.cast(tf.convert_to_tensor(value), dtype)


def deduplicate(values: tf.Tensor, indices: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
    """TF1's `_deduplicate_indexed_slices`: one row per index, the duplicates summed, indices in first-seen order."""
    unique_indices, positions = tf.unique(indices)
    return tf.math.unsorted_segment_sum(values, positions, tf.shape(unique_indices)[0]), unique_indices


class TF1ExactOptimizer(keras.optimizers.Optimizer):
    """Base of the TF1-exact optimizers; subclasses set `SLOTS`, `TF1_CLASS` and `apply_dense`.

    Subclasses implement `apply_dense(gradient, variable, learning_rate)`
    (one kernel call), `apply_sparse(values, indices, variable,
    learning_rate)` (TF1's sparse update) and, if TF1's optimizer has a
    `_finish`, `finish_step`.
    `slot(variable, name)` returns a slot variable, `tf1_slot_names(name)`
    what a TF1 checkpoint calls the slots of a variable.
    """

    TF1_CLASS = "tf.compat.v1.train.Optimizer"
    SLOTS: tuple[Slot, ...] = ()
    DEDUPLICATE_SPARSE = True
    """TF1's `_resource_apply_sparse_duplicate_indices` sums duplicate rows first (gradient descent does not)."""

    def __init__(self, learning_rate: Any, name: str, use_locking: bool = False, **kwargs: Any) -> None:
        if KERAS_3:
            super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        else:
            kwargs.setdefault("jit_compile", False)
            super().__init__(name=name, **kwargs)
            self._learning_rate = self._build_learning_rate(learning_rate)
        self.use_locking = bool(use_locking)
        self.tf1_name = name

    def build(self, var_list: Sequence[Any]) -> None:
        """Create each slot for each variable with TF1's initial value (once)."""
        if KERAS_3:
            if self.built:
                return
            super().build(var_list)
        else:
            super().build(var_list)
            if getattr(self, "_built", False):
                return
            self._built = True
        for slot in self.slots():
            setattr(self, f"_{slot.name}_slots", [self._add_slot(variable, slot) for variable in var_list])
        self.build_non_slots(var_list)

    def build_non_slots(self, var_list: Sequence[Any]) -> None:
        """Create per-optimizer (not per-variable) state; Adam's beta powers."""

    def _add_slot(self, variable: Any, slot: Slot) -> Any:
        if KERAS_3:
            return self.add_variable_from_reference(
                variable, name=slot.name, initializer=keras.initializers.Constant(slot.fill) if slot.fill else "zeros"
            )
        initial_value = tf.fill(variable.shape, tf.constant(slot.fill, variable.dtype)) if slot.fill else None
        return self.add_variable_from_reference(variable, slot.name, initial_value=initial_value)

    def add_scalar(self, name: str, initial_value: float) -> Any:
        """A float32 scalar optimizer variable (TF1's non-slot variables are float32 Python-float conversions)."""
        return self.add_variable(shape=(), dtype="float32", initializer=keras.initializers.Constant(initial_value), name=name)

    def slot(self, variable: Any, name: str) -> Any:
        """The slot `name` ("m", "accumulator", …) of a model variable."""
        return getattr(self, f"_{name}_slots")[variable_index(self, variable)]

    def slots(self) -> tuple[Slot, ...]:
        """The per-variable slots in TF1's creation order (override when they depend on arguments)."""
        return self.SLOTS

    def tf1_slot_names(self, tf1_variable_name: str) -> dict[str, str]:
        """Slot name → its name in a TF1 checkpoint, e.g. "m" → "dense/kernel/Adam"."""
        names = {}
        for slot in self.slots():
            suffix = self.tf1_name if slot.tf1_suffix_index == 0 else f"{self.tf1_name}_{slot.tf1_suffix_index}"
            names[slot.name] = f"{tf1_variable_name}/{suffix}"
        return names

    def non_slot_variables(self) -> dict[str, Any]:
        """TF1 checkpoint name → optimizer variable for per-optimizer state (Adam: beta powers)."""
        return {}

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any = None) -> Any:
        if learning_rate is None:
            learning_rate = self.learning_rate
        if isinstance(gradient, tf.IndexedSlices):
            if type(self).apply_sparse is TF1ExactOptimizer.apply_sparse:
                gradient = tf.convert_to_tensor(gradient)
            else:
                values, indices = gradient.values, gradient.indices
                if self.DEDUPLICATE_SPARSE:
                    values, indices = deduplicate(values, indices)
                return self.apply_sparse(values, indices, variable, hyper(learning_rate, values.dtype))
        return self.apply_dense(gradient, variable, hyper(learning_rate, gradient.dtype))

    def apply_dense(self, gradient: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must implement apply_dense (one fused kernel call).")

    def apply_sparse(self, values: tf.Tensor, indices: tf.Tensor, variable: Any, learning_rate: tf.Tensor) -> Any:
        """TF1's `_resource_apply_sparse` for rows `indices` (unique unless `DEDUPLICATE_SPARSE` is False)."""
        raise NotImplementedError(f"{type(self).__name__} has no sparse update: its sparse gradients are densified.")

    def _deduplicate_sparse_grad(self, grads: Any) -> Any:
        """Keras 2.15 sums duplicate rows before `update_step`; the twins do it themselves, where TF1 does."""
        return grads

    def finish_step(self) -> None:
        """Runs once per step after every variable was updated (TF1's `_finish`)."""

    if KERAS_3:

        def apply(self, grads: Sequence[Any], trainable_variables: Iterable[Any] | None = None) -> None:
            super().apply(grads, trainable_variables)
            if len(grads):
                self.finish_step()

    else:

        def apply_gradients(self, grads_and_vars: Iterable[Any], *args: Any, **kwargs: Any) -> Any:
            grads_and_vars = list(grads_and_vars)
            iteration = super().apply_gradients(grads_and_vars, *args, **kwargs)
            if grads_and_vars:
                self.finish_step()
            return iteration

    def hyperparameters(self) -> dict[str, Any]:
        """The TF1 constructor arguments besides learning_rate/name (for get_config)."""
        return {}

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        if not KERAS_3:
            config["learning_rate"] = self._serialize_hyperparameter(self._learning_rate)
        config.update(use_locking=self.use_locking, **self.hyperparameters())
        return config

