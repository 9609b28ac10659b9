"""`tf.contrib.learn.Experiment` and `learn_runner`.

## What it does
Checks for references to `tf.contrib.learn.Experiment` and to the
`learn_runner` module (`learn_runner.run(experiment_fn, ...)`).

## Why is this bad?
`tf.contrib` was removed in TF 2.0. `Experiment` + `learn_runner` are the
predecessors of `train_and_evaluate`: they alternate training and evaluation
of a contrib Estimator. Nothing of them survives; the training loop becomes
Keras `fit` with `validation_data`.

## Example
```python
from tensorflow.contrib.learn.python.learn import learn_runner
learn_runner.run(experiment_fn=make_experiment, output_dir=model_dir)
```

## Use instead
```python
model.fit(train_ds, validation_data=eval_ds, epochs=10, callbacks=callbacks)
```

## References
- https://www.tensorflow.org/guide/migrate/migrating_estimator
- https://github.com/tensorflow/community/blob/master/rfcs/20180907-contrib-sunset.md
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM107", name="contrib-learn-experiment", effort="redesign", doc=__doc__, modern_equivalent="modern/training.py")


def _matches(name: str) -> bool:
    if not name.startswith("tensorflow.contrib.learn"):
        return False
    parts = name.split(".")
    return "learn_runner" in parts or parts[-1] == "Experiment"


@register(RULE, "tensorflow.contrib.learn.*")
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    if _matches(reference.name):
        yield reference.node, (
            f"`{reference.spelling}` was removed with tf.contrib in TF 2.0; replace the Experiment loop with "
            "`model.fit(..., validation_data=...)` (see modern/training.py)"
        )
