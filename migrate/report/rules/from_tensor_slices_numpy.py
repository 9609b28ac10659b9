"""`Dataset.from_tensor_slices` on in-memory NumPy arrays (the 2 GB GraphDef trap).

## What it does
Checks for `tf.data.Dataset.from_tensor_slices(...)` whose argument is, or
contains, a NumPy array: the result of a `numpy.*` call, of `*.load_data()`,
or a name bound to one in the same file.

## Why is this bad?
In graph mode (TF1, `tf.compat.v1`, Estimator `input_fn`) the arrays are
embedded in the GraphDef as constants: the graph grows by the size of the
data, checkpoints and exported graphs carry it, and beyond 2 GB the protobuf
cannot be serialised at all. The TF1 workaround — placeholders plus an
initializable iterator — has no TF2 form. A generator-backed dataset streams
batches without copying the data into the graph.

## Example
```python
images = np.load("train.npy")
dataset = tf.data.Dataset.from_tensor_slices((images, labels)).batch(128)
```

## Use instead
```python
dataset = tf.data.Dataset.from_generator(batches, output_signature=signature)   # modern/pipeline.py
```

## References
- https://www.tensorflow.org/guide/data#consuming_numpy_arrays
- https://www.tensorflow.org/api_docs/python/tf/data/Dataset#from_generator
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM403", name="from-tensor-slices-numpy", effort="rewrite", doc=__doc__, modern_equivalent="modern/pipeline.py")

NAMES = frozenset({"tensorflow.data.Dataset.from_tensor_slices", "tensorflow.data.Dataset.from_tensors"})


def _has_array(node: ast.AST, context: FileContext) -> bool:
    if isinstance(node, (ast.Tuple, ast.List)):
        return any(_has_array(element, context) for element in node.elts)
    if isinstance(node, ast.Dict):
        return any(_has_array(value, context) for value in node.values)
    return context.is_array_expression(node)


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    call = reference.call
    if call is None or not call.args:
        return
    if _has_array(call.args[0], context):
        yield call, (
            "`Dataset.from_tensor_slices` on NumPy arrays embeds them in the graph as constants (GraphDef 2 GB limit "
            "in graph mode/Estimator input_fn); stream them with `Dataset.from_generator` (see modern/pipeline.py)"
        )
