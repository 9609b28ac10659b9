"""`tf.estimator.train_and_evaluate` with `TrainSpec` / `EvalSpec`.

## What it does
Checks for references to `tf.estimator.train_and_evaluate`, `tf.estimator.TrainSpec`
and `tf.estimator.EvalSpec`.

## Why is this bad?
`train_and_evaluate` alternates training and evaluation from checkpoints
(`EvalSpec.throttle_secs`, `start_delay_secs`) and runs distributed via the
`TF_CONFIG` cluster spec. It disappears with `tf.estimator`; Keras evaluates
on `validation_data` at the end of each epoch, or explicitly with `evaluate`.

## Example
```python
tf.estimator.train_and_evaluate(
    estimator,
    tf.estimator.TrainSpec(train_input_fn, max_steps=1000),
    tf.estimator.EvalSpec(eval_input_fn, steps=50))
```

## Use instead
```python
model.fit(train_ds, epochs=10, steps_per_epoch=100,
          validation_data=eval_ds, validation_steps=50)
```
On a cluster (`TF_CONFIG` with chief, worker, ps and `evaluator` tasks):
train with `MultiWorkerMirroredStrategy` workers (worker 0 the chief) and run
the evaluator task as a sidecar process that evaluates each new checkpoint
and writes `eval/` summaries (`modern/distributed/sidecar.py`; compared with
the Estimator cluster by `migrate parity --workers 2 --evaluator`).

## References
- https://www.tensorflow.org/guide/migrate/migrating_estimator
- https://www.tensorflow.org/guide/migrate/multi_worker_cpu_gpu_training
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM105", name="train-and-evaluate", effort="redesign", doc=__doc__, modern_equivalent="modern/training.py")

NAMES = frozenset({
    "tensorflow.estimator.train_and_evaluate",
    "tensorflow.estimator.TrainSpec",
    "tensorflow.estimator.EvalSpec",
})


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` disappears with tf.estimator; train with `model.fit(..., validation_data=...)` "
        "and evaluate with `model.evaluate` (see modern/training.py)"
    )
