"""tfdbg v1: `LocalCLIDebugHook`, `DumpingDebugHook`, the debug wrapper sessions.

## What it does
Checks for references to the TF1 debugger (`tensorflow.python.debug`, usually
imported as `tf_debug`): its hooks (`LocalCLIDebugHook`, `DumpingDebugHook`,
`TensorBoardDebugHook`, `GrpcDebugHook`) and its wrapper sessions
(`LocalCLIDebugWrapperSession`, …).

## Why is this bad?
tfdbg v1 wraps `session.run` (as a hook or a session wrapper) to dump or
inspect the tensors of each run. Without sessions there is nothing to wrap;
TF2's Debugger V2 instruments eager and `tf.function` execution instead and
shows the dumps in TensorBoard.

## Example
```python
from tensorflow.python import debug as tf_debug
estimator.train(input_fn, hooks=[tf_debug.LocalCLIDebugHook()])
```

## Use instead
```python
tf.debugging.experimental.enable_dump_debug_info(logdir, tensor_debug_mode="FULL_HEALTH")
model.fit(dataset)              # then open TensorBoard's Debugger V2 tab
```

## References
- https://www.tensorflow.org/tensorboard/debugger_v2
- https://www.tensorflow.org/api_docs/python/tf/debugging/experimental/enable_dump_debug_info
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM207", name="tfdbg-hook", effort="rewrite", doc=__doc__)

NAMESPACE = "tensorflow.python.debug"
DEBUGGERS = frozenset({
    "LocalCLIDebugHook", "DumpingDebugHook", "TensorBoardDebugHook", "GrpcDebugHook",
    "LocalCLIDebugWrapperSession", "DumpingDebugWrapperSession", "TensorBoardDebugWrapperSession", "GrpcDebugWrapperSession",
})


@register(RULE, f"{NAMESPACE}.*")
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    if reference.name.rpartition(".")[2] in DEBUGGERS:
        yield reference.node, (
            f"`{reference.spelling}` is the TF1 debugger (tfdbg), which wraps `session.run`; in TF2 call "
            "`tf.debugging.experimental.enable_dump_debug_info(logdir)` and use TensorBoard's Debugger V2"
        )
