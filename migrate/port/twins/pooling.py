"""`tf.nn.max_pool*` / `avg_pool*` (and `tf.layers` pooling) → `keras.layers.MaxPooling*` / `AveragePooling*`."""
from __future__ import annotations

from migrate.port.fusion import keyword_arguments
from migrate.port.graph import Claim, LayerSpec
from migrate.port.records import Conversion
from migrate.port.registry import Twin

LAYERS = {"MaxPool": "MaxPooling2D", "AvgPool": "AveragePooling2D", "MaxPool3D": "MaxPooling3D",
          "AvgPool3D": "AveragePooling3D"}


def match(op, view):
    if op.type not in LAYERS:
        return None
    data_format = op.get_attr("data_format").decode()
    first = data_format.startswith("NC")
    pick = (lambda values: tuple(list(values)[2:])) if first else (lambda values: tuple(list(values)[1:-1]))
    size, strides = pick(op.get_attr("ksize")), pick(op.get_attr("strides"))
    hint = op.name.rpartition("/")[0].replace("/", "_") or op.name
    arguments = keyword_arguments(strides=repr(strides), padding=repr(op.get_attr("padding").decode().lower()),
                                  data_format='"channels_first"' if first else None)
    attribute = view.unique_attribute(hint, f"keras.layers.{LAYERS[op.type]}({size!r}, {arguments})")
    constructor = f"keras.layers.{LAYERS[op.type]}({size!r}, {arguments}, name={attribute!r})"
    return Claim([op], [op.inputs[0]], op.outputs[0], lambda args: f"self.{attribute}({args[0]})",
                 Conversion(view.location(op), op.type, constructor), LayerSpec(attribute, constructor, name=attribute), attribute)


TWIN = Twin("pooling", match, priority=20)
