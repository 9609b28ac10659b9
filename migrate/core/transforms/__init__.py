"""Weight transforms: a `variable_map` row may convert TF1 values into another Keras layout (TensorFlow-free).

One module per transform; importing this package registers them all in
`REGISTRY` (by name: `migrate parity --show-mapping` prints the name of each
row's transform). A pair file uses them in `variable_map`: a value is a
Keras weight path, or ``(keras path(s), transform)`` where the transform is
a registered name or a `Transform`; a key is a TF1 name, or a tuple of them
for a transform that reads several::

    from migrate.core.transforms import function, transpose

    variable_map = {
        "encoder/attention/query/kernel": ("mha/query/kernel", "mha_qkv_kernel"),   # (d, d) → (d, heads, head_dim)
        "encoder/attention/query/bias": ("mha/query/bias", "mha_qkv_bias"),         # (d,) → (heads, head_dim)
        "encoder/attention/output/kernel": ("mha/attention_output/kernel", "mha_output_kernel"),
        "cnn/conv_3/W": ("conv1d/kernel", "conv2d_as_conv1d"),                      # (k, emb, 1, o) → (k, emb, o)
        "output/W": ("logits/kernel", "transposed_dense"),                          # (classes, d) → (d, classes)
        "rnn/lstm_cell/kernel": (["lstm/lstm_cell/kernel", "lstm/lstm_cell/recurrent_kernel"], "lstm_kernel"),
        "rnn/lstm_cell/bias": ("lstm/lstm_cell/bias", "lstm_bias"),                 # forget_bias 1.0 folded in
        ("rnn/gru_cell/gates/kernel", "rnn/gru_cell/candidate/kernel"):
            (["gru/gru_cell/kernel", "gru/gru_cell/recurrent_kernel"], "gru_kernel"),
        ("rnn/gru_cell/gates/bias", "rnn/gru_cell/candidate/bias"): ("gru/gru_cell/bias", "gru_bias"),
        "scale/w": ("dense_1/kernel", function(lambda w: w.T, inverse=lambda k: k.T, name="w.T")),
        "proj/w": ("dense_2/kernel", transpose(1, 0)),
    }

Factories: `reshape()`, `transpose(*axes)`, `drop_unit_axis(axis)`,
`split(axis, gates)`, `concat(axis, gates)`, `reorder_gates(order, axis)`,
`lstm_bias(forget_bias)`, `function(forward, inverse, name)`. Weights are
compared in the Keras layout (the TF1 values go through `forward`);
`inverse` is needed only to write Keras values back under TF1 names.
"""
from __future__ import annotations

import importlib
import pkgutil

from migrate.core.transforms.base import REGISTRY, Shape, Transform, TransformError, register

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "base":
        importlib.import_module(f"{__name__}.{_module.name}")

from migrate.core.transforms.drop_unit_axis import drop_unit_axis  # noqa: E402
from migrate.core.transforms.function import function  # noqa: E402
from migrate.core.transforms.lstm_bias import lstm_bias  # noqa: E402
from migrate.core.transforms.reshape import reshape  # noqa: E402
from migrate.core.transforms.split import concat, reorder_gates, split  # noqa: E402
from migrate.core.transforms.transpose import transpose  # noqa: E402

__all__ = [
    "REGISTRY", "Shape", "Transform", "TransformError", "concat", "drop_unit_axis", "function", "lstm_bias", "register",
    "reorder_gates", "reshape", "resolve", "split", "transpose",
]


def resolve(spec: str | Transform) -> Transform:
    """A registered name or a `Transform` → the `Transform`; an unknown name raises `TransformError` listing the names."""
    if isinstance(spec, Transform):
        return spec
    if isinstance(spec, str) and spec in REGISTRY:
        return REGISTRY[spec]
    known = "\n".join(f"  {name}: {REGISTRY[name].summary}" for name in sorted(REGISTRY))
    raise TransformError(f"{spec!r} is not a transform; give a Transform (e.g. migrate.core.transforms."
                         f"function(forward, inverse)) or one of these names:\n{known}\n")
