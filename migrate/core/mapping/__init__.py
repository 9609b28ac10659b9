"""Which Keras weight each trainable TF1 variable is copied into, and through which transform (TensorFlow-free).

Before step 1 the legacy side's initial values are copied into the Keras
model, so both train from the same weights (seeds do not give the same
weights across the two APIs). Every Keras weight gets exactly one `Match`:
the TF1 variable(s) it comes from and the transform between the layouts
(None: the same array). The mapping is, in this order:

1. the pair's `variable_map` (``{tf1 name: keras path}``; a value may be
   ``(keras path(s), transform)`` and a key a tuple of TF1 names, see
   `migrate.core.transforms`; or a callable taking the TF1 name and
   returning such a value), checked against both models before anything runs;
2. names after normalising (``scope/logits/weights:0`` ↔ ``logits/kernel``):
   equal, or one the other's scope-free tail, and unique;
3. recurrent cells by layout: a TF1 LSTM/GRU cell's kernel and bias onto a
   Keras LSTM/GRU layer's kernel, recurrent kernel and bias;
4. the weights left with no possible counterpart are reported (shapes and
   element counts) before anything else;
5. a unique shape (or a unique inferable transform: exactly one named
   transform fits, never one whose output shape does not fit);
6. creation order, when the remaining weights of both sides line up in it
   (Keras weights by creation, not by the model's topological listing).

Anything else is refused, never guessed: `MappingError` lists the
candidates and a `variable_map` (ranked by name, creation order and layer
type; no weight named twice) that settles it (exit 2 on the command line).
A pair matched by order among weights initialised to the same constant
(two zero biases of one shape) cannot be told from its swap before step 1:
it is marked `unverified` and checked after step 1.

Weights are compared in the Keras layout: TF1 values go through the
forward transform (`to_keras_layout`); the inverse is needed only to write
Keras values back under TF1 names (`to_tf1_layout`).

Modules: `records` (Weight, Match, the layouts, the table), `variable_map`
(the pair's map, checked), `names` and `candidates` (how alike two weights
are by name, by shape), `inference` (the steps), `messages` (no
counterpart, ambiguity, order guesses).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from migrate.core.mapping.inference import Inference
from migrate.core.mapping.messages import mark_unverified, no_counterpart, proposal
from migrate.core.mapping.records import (
    FORGET_BIAS_NOTE,
    MappingError,
    Match,
    Shape,
    VariableMap,
    Weight,
    mapping_table,
    normalise,
    to_keras_layout,
    to_tf1_layout,
    unique_names,
)
from migrate.core.mapping.variable_map import split_variable_map, variable_map_rows
from migrate.core.transforms.base import show_shape

__all__ = [
    "FORGET_BIAS_NOTE", "MappingError", "Match", "Shape", "VariableMap", "Weight", "infer_mapping", "mapping_table",
    "normalise", "show_shape", "split_variable_map", "to_keras_layout", "to_tf1_layout", "unique_names",
]


def infer_mapping(
    legacy: Sequence[Weight],
    modern: Sequence[Weight],
    variable_map: VariableMap | None = None,
    *,
    legacy_constants: Mapping[str, float | None] | None = None,
    modern_constants: Mapping[str, float | None] | None = None,
) -> list[Match]:
    """One `Match` per Keras weight, in TF1 creation order; raise `MappingError` when that is impossible or ambiguous.

    `legacy_constants`/`modern_constants` (name → the constant a weight starts at, or None) let pairs matched by
    order among equal constants be marked unverified.
    """
    legacy = [Weight(normalise(w.name), tuple(w.shape), w.dtype, w.layer, w.order) for w in legacy]
    modern = [Weight(normalise(w.name), tuple(w.shape), w.dtype, w.layer, w.order) for w in modern]
    for side, weights in (("TF1", legacy), ("Keras", modern)):
        names = [w.name for w in weights]
        if len(set(names)) != len(names):
            raise MappingError(f"the {side} side names several weights alike ({', '.join(sorted({n for n in names if names.count(n) > 1}))}); "
                               "give them unique names (migrate.core.mapping.unique_names)")
    state = Inference(legacy, modern)
    if variable_map is not None:
        for sources, targets, transform in variable_map_rows(variable_map, legacy, modern):
            state.add(sources, targets, transform, "variable_map")
    state.cells()
    state.by_name()
    problem = no_counterpart(state)
    if problem:
        raise MappingError(problem)
    state.by_unique_shape()
    constants = (dict(legacy_constants or {}), dict(modern_constants or {}))
    if state.free_legacy() and not state.by_creation_order():
        raise MappingError(proposal(state, constants))
    order = {w.name: index for index, w in enumerate(legacy)}
    keras_order = {w.name: index for index, w in enumerate(modern)}
    matches = sorted(state.matches, key=lambda m: (order[m.legacy.name], keras_order[m.modern.name]))
    return mark_unverified(matches, constants)
