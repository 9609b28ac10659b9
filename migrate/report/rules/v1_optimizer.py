"""`tf.train.*Optimizer` (TF1 optimizers).

## What it does
Checks for references to the TF1 optimizer classes under `tf.train`
(`GradientDescentOptimizer`, `AdamOptimizer`, `MomentumOptimizer`, …).

## Why is this bad?
They build update ops in a graph (`minimize` returns a `train_op`) and do
not exist in TF2 outside `tf.compat.v1`. There are two replacements:

* the **exact twin** in `modern/optimizers/` (`Adam`, `Momentum`,
  `Adagrad`, `RMSProp`, `Ftrl`, `GradientDescent`): a Keras optimizer with
  the TF1 class's arguments and defaults that runs TF1's own update kernels,
  so training continues bit for bit (and `modern/tf1_checkpoint.py` carries
  the optimizer slots of a TF1 checkpoint over);
* **Keras' own** optimizer, which trains differently in ways that matter:
  Keras `Adam` uses `epsilon=1e-7` (TF1: 1e-8) and recomputes its bias
  correction with `pow`; Keras `RMSprop` starts its mean square at 0
  (TF1: 1), so its first steps are ~3× larger; Keras `SGD(momentum=…)`
  folds the learning rate into the velocity, so a decaying learning rate
  acts differently; Keras `Adagrad` adds `epsilon=1e-7`. The
  "Exact or native optimizer?" table of docs/guide/continuing.md gives the measured drift.

The global step becomes `optimizer.iterations`.

## Example
```python
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss, global_step=global_step)
```

## Use instead
```python
from modern.optimizers import Adam            # TF1's update, bit for bit
model.compile(optimizer=Adam(1e-3), loss=loss)
# or Keras' own, closest settings (drifts slightly):
model.compile(optimizer=keras.optimizers.Adam(1e-3, epsilon=1e-8), loss=loss)
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://keras.io/api/optimizers/
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM504", name="v1-optimizer", effort="rename", doc=__doc__, modern_equivalent="modern/optimizers/")

Twin = tuple[str | None, str | None, str]
"""(exact twin in modern/optimizers, Keras' own optimizer, the difference that matters)."""

TWINS: dict[str, Twin] = {
    "GradientDescentOptimizer": (
        "modern.optimizers.GradientDescent(learning_rate)", "keras.optimizers.SGD(learning_rate)",
        "Keras' SGD rounds the same: either is exact",
    ),
    "MomentumOptimizer": (
        "modern.optimizers.Momentum(learning_rate, momentum, use_nesterov=…)",
        "keras.optimizers.SGD(learning_rate, momentum=momentum, nesterov=use_nesterov)",
        "Keras folds the learning rate into the velocity: rounding drift, and a decaying rate acts differently",
    ),
    "AdamOptimizer": (
        "modern.optimizers.Adam(learning_rate)", "keras.optimizers.Adam(learning_rate, epsilon=1e-8)",
        "Keras' default epsilon is 1e-7 (TF1 1e-8) and its bias correction uses pow(): drift grows with steps",
    ),
    "AdagradOptimizer": (
        "modern.optimizers.Adagrad(learning_rate)", "keras.optimizers.Adagrad(learning_rate, epsilon=0.0)",
        "Keras adds epsilon=1e-7 inside the square root by default (TF1 has none)",
    ),
    "RMSPropOptimizer": (
        "modern.optimizers.RMSProp(learning_rate, decay, momentum, epsilon)",
        "keras.optimizers.RMSprop(learning_rate, rho=decay, epsilon=1e-10)",
        "Keras starts the mean square at 0 (TF1 at 1): first steps ~3x larger",
    ),
    "FtrlOptimizer": (
        "modern.optimizers.Ftrl(learning_rate)", "keras.optimizers.Ftrl(learning_rate)",
        "same formula, other op order: rounding drift",
    ),
    "AdadeltaOptimizer": (None, "keras.optimizers.Adadelta(learning_rate)", "no exact twin yet"),
    "ProximalGradientDescentOptimizer": (None, None, ""),
    "ProximalAdagradOptimizer": (None, None, ""),
    "AdagradDAOptimizer": (None, None, ""),
    "SyncReplicasOptimizer": (None, None, ""),
    "Optimizer": (None, "keras.optimizers.Optimizer", "subclass it and implement update_step"),
}


def advice(class_name: str) -> str:
    """What to use instead of TF1 optimizer `class_name`: the exact twin first, then Keras' own."""
    exact, native, difference = TWINS[class_name]
    if exact:
        return f"use `{exact}` (TF1's update, bit for bit) or `{native}` ({difference})"
    if native:
        return f"use `{native}` ({difference})"
    return "no Keras twin: keep it under tf.compat.v1 or write a custom optimizer"


@register(RULE, *(f"tensorflow.train.{name}" for name in TWINS))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` is a TF1 graph optimizer (minimize → train_op); "
        f"{advice(reference.name.rpartition('.')[2])} in `model.compile`; "
        "the global step becomes `optimizer.iterations`"
    )
