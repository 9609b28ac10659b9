"""A built-in hook instantiated (`LoggingTensorHook`, `StopAtStepHook`, …).

## What it does
Checks for calls constructing TensorFlow's own hooks (`tf.train.*Hook`,
`tf.estimator.*Hook`, `tf.data.experimental.CheckpointInputPipelineHook`, the
early-stopping and stop-at-checkpoint-step hook factories) and names the Keras
callback in `modern/callbacks/` that replaces each, with the differences to
watch, as declared by that callback's `TF1_EQUIVALENT` metadata (the same
table `migrate hooks` prints).

## Why is this bad?
Built-in hooks need a `MonitoredSession`. Their Keras replacements differ in
details that change results: `LoggingTensorHook` logs graph tensors by name
(Keras has none; values must come from the train step), `StopAtStepHook`'s
`num_steps` is relative to the step at session creation,
`CheckpointSaverHook` also saves at step 0 and at the end, Keras'
`logs["loss"]` is an epoch running mean, `EarlyStopping` counts epochs where
the TF1 hook counted steps.

## Example
```python
hooks = [tf.train.StopAtStepHook(last_step=1000),
         tf.train.LoggingTensorHook({"loss": loss}, every_n_iter=100)]
```

## Use instead
```python
callbacks = [StopAtStep(last_step=1000),        # modern/callbacks/stop_at_step.py
             LoggingTensor(every_n_iter=100)]   # modern/callbacks/logging_tensor.py
```

## References
- https://www.tensorflow.org/guide/migrate/logging_stop_hook
- https://www.tensorflow.org/guide/migrate/checkpoint_saver
- https://www.tensorflow.org/guide/migrate/early_stopping
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM202", name="builtin-hook", effort="rewrite", doc=__doc__, modern_equivalent="modern/callbacks/")

HOOK_FACTORIES = frozenset({
    "stop_if_no_decrease_hook", "stop_if_no_increase_hook", "stop_if_higher_hook",
    "stop_if_lower_hook", "make_early_stopping_hook", "make_stop_at_checkpoint_step_hook",
})
HOOK_MODULES = ("tensorflow.train.", "tensorflow.estimator.", "tensorflow.contrib.", "tensorflow.data.")


def builtin_hook_name(name: str) -> str | None:
    """The hook's class (or factory) name when `name` is a TensorFlow built-in hook."""
    if not name.startswith(HOOK_MODULES):
        return None
    last = name.rpartition(".")[2]
    if last in HOOK_FACTORIES or (last.endswith("Hook") and last != "SessionRunHook"):
        return last
    return None


@register(RULE, *(f"{module}*" for module in HOOK_MODULES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    call = reference.call
    if call is None:
        return
    hook = builtin_hook_name(reference.name)
    if hook is None:
        return
    spelling, node = reference.spelling, call
    equivalent = context.hook_map.get(hook)
    if equivalent is None:
        yield node, (
            f"`{spelling}` is a SessionRunHook and needs a MonitoredSession; no callback in modern/callbacks answers "
            "it yet: write a `keras.callbacks.Callback` (after_run → on_train_batch_end, end → on_train_end)"
        )
        return
    replacement = f"`{equivalent.callback}` from {equivalent.path}" if equivalent.callback else f"what {equivalent.path} describes"
    differences = f" (watch: {'; '.join(equivalent.differences)})" if equivalent.differences else ""
    yield node, f"`{spelling}` is a SessionRunHook and needs a MonitoredSession; use {replacement} instead{differences}"
