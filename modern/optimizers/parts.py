"""`Parts`: one Keras optimizer made of TF1-exact optimizers, each training the variables of one part of the model.

Twin of a TF1 train op grouping several ``minimize`` calls on disjoint
variable lists — what the canned ``DNNLinearCombined*`` estimators do: Ftrl
on the linear part (``linear/…``), Adagrad on the DNN part (``dnn/…``), each
with its own learning rate, in one step. Keras compiles one optimizer per
model, so `Parts` routes each variable to the optimizer of the first part
whose prefix its Keras path starts with (``""`` matches every path), and
runs each part's `finish_step` after all variables were updated, as TF1
finishes each optimizer's ``apply_gradients``. A part whose optimizer is
None is not trained at all: a trainable TF1 variable that no ``minimize``
call updates (the v2 canned DNN estimators never train a shared embedding
table) keeps its value.

Each part's optimizer keeps its own slots and hyperparameters; the parts'
own ``iterations`` are not advanced (only `Parts`' are), so their learning
rates must not be schedules on their own step count.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from modern.optimizers.base import KERAS_3, TF1ExactOptimizer


class Parts(TF1ExactOptimizer):
    """Several TF1-exact optimizers, one per variable-path prefix.

    Args:
        parts: ``{path prefix: optimizer or None}``, tried in order; ``""`` matches every path; None: not
            trained. The optimizers are TF1-exact twins, or Keras' own (a v2 canned estimator's Adam).
        name: the optimizer's name.

    Example:
        model.compile(optimizer=Parts({"linear_model/": Ftrl(0.005), "": Adagrad(0.001)}))
    """

    TF1_CLASS = "several tf.compat.v1.train optimizers in one train op"

    def __init__(self, parts: Mapping[str, Any], name: str = "Parts", **kwargs: Any) -> None:
        super().__init__(0.0, name, **kwargs)
        if not parts:
            raise ValueError("Parts: give at least one {prefix: optimizer}.")
        self.parts = list(parts.items())

    def owner(self, variable: Any) -> TF1ExactOptimizer | None:
        """The optimizer of the first part whose prefix the variable's path starts with."""
        path = (getattr(variable, "path", None) or variable.name).split(":")[0]
        for prefix, optimizer in self.parts:
            if path.startswith(prefix):
                return optimizer
        raise ValueError(f"Parts: no part's prefix ({[prefix for prefix, _ in self.parts]}) matches {path!r}; "
                         'add a part with prefix "" for the rest.')

    def build(self, var_list: Sequence[Any]) -> None:
        super().build(var_list)
        for optimizer in self.optimizers():
            optimizer.build([variable for variable in var_list if self.owner(variable) is optimizer])

    def optimizers(self) -> list[TF1ExactOptimizer]:
        """Each part's optimizer once: parts may share one (several prefixes of one variable group)."""
        return list({id(optimizer): optimizer for _, optimizer in self.parts if optimizer is not None}.values())

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any = None) -> Any:
        optimizer = self.owner(variable)
        if optimizer is None:
            return None
        if KERAS_3 and not isinstance(optimizer, TF1ExactOptimizer):  # Keras 3's own optimizers take the rate
            return optimizer.update_step(gradient, variable, optimizer.learning_rate)
        return optimizer.update_step(gradient, variable)

    def finish_step(self) -> None:
        for optimizer in self.optimizers():
            if isinstance(optimizer, TF1ExactOptimizer):
                optimizer.finish_step()

    def hyperparameters(self) -> dict[str, Any]:
        return {"parts": {prefix: None if optimizer is None else optimizer.get_config()
                          for prefix, optimizer in self.parts}}
