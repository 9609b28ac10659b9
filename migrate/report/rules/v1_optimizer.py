"""`tf.train.*Optimizer` (TF1 optimizers).

## What it does
Checks for references to the TF1 optimizer classes under `tf.train`
(`GradientDescentOptimizer`, `AdamOptimizer`, `MomentumOptimizer`, …).

## Why is this bad?
They build update ops in a graph (`minimize` returns a `train_op`) and do
not exist in TF2 outside `tf.compat.v1`. Their Keras counterparts take the
same hyper-parameters with a few different defaults that change training:
Keras `Adam` uses `epsilon=1e-7` (TF1: 1e-8), `Adagrad` starts its
accumulator at 0.1 in both but names it differently, `Momentum` becomes
`SGD(momentum=…)`. The global step becomes `optimizer.iterations`.

## Example
```python
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss, global_step=global_step)
```

## Use instead
```python
model.compile(optimizer=keras.optimizers.Adam(1e-3, epsilon=1e-8), loss=loss)
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://keras.io/api/optimizers/
"""
from __future__ import annotations

from typing import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM504", name="v1-optimizer", effort="rename", doc=__doc__, modern_equivalent="modern/training.py")

KERAS_OPTIMIZERS = {
    "GradientDescentOptimizer": "keras.optimizers.SGD(learning_rate)",
    "MomentumOptimizer": "keras.optimizers.SGD(learning_rate, momentum=momentum, nesterov=use_nesterov)",
    "AdamOptimizer": "keras.optimizers.Adam(learning_rate, epsilon=1e-8)",
    "AdagradOptimizer": "keras.optimizers.Adagrad(learning_rate)",
    "AdadeltaOptimizer": "keras.optimizers.Adadelta(learning_rate)",
    "RMSPropOptimizer": "keras.optimizers.RMSprop(learning_rate, rho=decay, epsilon=1e-10)",
    "FtrlOptimizer": "keras.optimizers.Ftrl(learning_rate)",
    "ProximalGradientDescentOptimizer": None,
    "ProximalAdagradOptimizer": None,
    "AdagradDAOptimizer": None,
    "SyncReplicasOptimizer": None,
    "Optimizer": "keras.optimizers.Optimizer",
}


@register(RULE, *(f"tensorflow.train.{name}" for name in KERAS_OPTIMIZERS))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    replacement = KERAS_OPTIMIZERS[reference.name.rpartition(".")[2]]
    advice = f"use `{replacement}`" if replacement else "no Keras twin: keep it under tf.compat.v1 or write a custom optimizer"
    yield reference.node, (
        f"`{reference.spelling}` is a TF1 graph optimizer (minimize → train_op); {advice} in `model.compile`; "
        "the global step becomes `optimizer.iterations`"
    )
