"""Which Keras weight each trainable TF1 variable is copied into (TensorFlow-free).

Before step 1 the legacy side's initial values are copied into the Keras
model, so both train from the same weights (seeds do not give the same
weights across the two APIs). The mapping is, in this order:

1. the pair's `variable_map` (``{tf1 name: keras path}``, or a callable taking
   the TF1 name and returning the Keras path), checked against both models;
2. exact names after normalising (``dense/kernel:0`` ↔ ``dense/kernel``);
3. creation order: the remaining variables of both sides, paired in the order
   they were created, when every pair has equal shapes;
4. else per shape, when exactly one TF1 variable and one Keras weight have it.

Anything else is refused, never guessed: `MappingError` lists the candidates
and the `variable_map` line that settles it (exit 2 on the command line).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

Shape = tuple[int, ...]
VariableMap = Mapping[str, str] | Callable[[str], str | None]


class MappingError(ValueError):
    """The TF1 variables and the Keras weights cannot be matched one to one; the message says how to settle it."""


@dataclass(frozen=True)
class Weight:
    """A trainable variable as the mapping sees it: normalised name, shape and dtype."""

    name: str
    shape: Shape
    dtype: str = "float32"


@dataclass(frozen=True)
class Match:
    legacy: Weight
    modern: Weight
    how: str  # "variable_map", "name", "creation order" or "unique shape"


def normalise(name: str) -> str:
    """``scope/dense/kernel:0`` → ``scope/dense/kernel``: the output index is not part of a variable's name."""
    return name.split(":", 1)[0]


def show_shape(shape: Shape) -> str:
    return "(" + ", ".join(str(size) for size in shape) + ("," if len(shape) == 1 else "") + ")"


def mapping_table(matches: Sequence[Match]) -> str:
    """The table `migrate parity --show-mapping` prints: TF1 name, shape → Keras path, shape, how."""
    header = ("TF1 variable", "shape", "Keras weight", "shape", "matched by")
    rows = [(m.legacy.name, show_shape(m.legacy.shape), m.modern.name, show_shape(m.modern.shape), m.how) for m in matches]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    line = lambda row: "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()  # noqa: E731
    return "\n".join([line(header), *(line(row) for row in rows)])


def _explicit(legacy: Sequence[Weight], modern: Sequence[Weight], variable_map: VariableMap) -> list[Match]:
    by_name = {weight.name: weight for weight in modern}
    legacy_names = {weight.name: weight for weight in legacy}
    if callable(variable_map):
        pairs = [(weight.name, variable_map(weight.name)) for weight in legacy]
        pairs = [(tf1, keras) for tf1, keras in pairs if keras is not None]
    else:
        pairs = list(variable_map.items())
    problems = []
    matches = []
    for tf1_name, keras_path in pairs:
        tf1 = legacy_names.get(normalise(tf1_name))
        keras = by_name.get(normalise(str(keras_path)))
        if tf1 is None:
            problems.append(f"variable_map names the TF1 variable {tf1_name!r}, which the model_fn does not create "
                            f"(trainable variables: {', '.join(sorted(legacy_names))})")
        if keras is None:
            problems.append(f"variable_map names the Keras weight {keras_path!r}, which build_model's model does not have "
                            f"(trainable weights: {', '.join(sorted(by_name))})")
        if tf1 is not None and keras is not None:
            if tf1.shape != keras.shape:
                problems.append(f"variable_map maps {tf1.name} {show_shape(tf1.shape)} onto {keras.name} "
                                f"{show_shape(keras.shape)}: the shapes differ")
            matches.append(Match(tf1, keras, "variable_map"))
    if problems:
        raise MappingError("; ".join(problems) + ". Fix variable_map in the pair file (or remove it to infer the mapping).")
    return matches


def _count_problem(legacy: Sequence[Weight], modern: Sequence[Weight]) -> str | None:
    if len(legacy) == len(modern):
        return None
    listing = lambda weights: ", ".join(f"{w.name} {show_shape(w.shape)}" for w in weights) or "none"  # noqa: E731
    return (
        f"the model_fn creates {len(legacy)} trainable variables and build_model's model has {len(modern)} trainable "
        f"weights; they cannot match one to one. TF1: {listing(legacy)}. Keras: {listing(modern)}."
    )


def infer_mapping(
    legacy: Sequence[Weight], modern: Sequence[Weight], variable_map: VariableMap | None = None
) -> list[Match]:
    """One `Match` per TF1 variable, in TF1 creation order; raise `MappingError` when that is impossible or ambiguous."""
    legacy = [Weight(normalise(w.name), tuple(w.shape), w.dtype) for w in legacy]
    modern = [Weight(normalise(w.name), tuple(w.shape), w.dtype) for w in modern]
    problem = _count_problem(legacy, modern)
    if problem:
        raise MappingError(problem)
    matches = _explicit(legacy, modern, variable_map) if variable_map is not None else []
    taken_legacy = {m.legacy.name for m in matches}
    taken_modern = {m.modern.name for m in matches}
    modern_by_name = {w.name: w for w in modern if w.name not in taken_modern}
    for weight in legacy:
        twin = modern_by_name.get(weight.name)
        if weight.name not in taken_legacy and twin is not None and twin.shape == weight.shape:
            matches.append(Match(weight, twin, "name"))
            taken_legacy.add(weight.name)
            taken_modern.add(twin.name)
    rest_legacy = [w for w in legacy if w.name not in taken_legacy]
    rest_modern = [w for w in modern if w.name not in taken_modern]
    if rest_legacy and all(a.shape == b.shape for a, b in zip(rest_legacy, rest_modern)):
        matches += [Match(a, b, "creation order") for a, b in zip(rest_legacy, rest_modern)]
    else:
        matches += _by_unique_shape(rest_legacy, rest_modern)
    order = {w.name: index for index, w in enumerate(legacy)}
    return sorted(matches, key=lambda m: order[m.legacy.name])


def _by_unique_shape(legacy: Sequence[Weight], modern: Sequence[Weight]) -> list[Match]:
    matches, ambiguous, unmatched = [], [], []
    for weight in legacy:
        same_shape_modern = [w for w in modern if w.shape == weight.shape]
        same_shape_legacy = [w for w in legacy if w.shape == weight.shape]
        if len(same_shape_modern) == 1 and len(same_shape_legacy) == 1:
            matches.append(Match(weight, same_shape_modern[0], "unique shape"))
        elif same_shape_modern:
            ambiguous.append((weight, same_shape_modern))
        else:
            unmatched.append(weight)
    if unmatched:
        shapes = ", ".join(f"{w.name} {show_shape(w.shape)}" for w in unmatched)
        offered = ", ".join(f"{w.name} {show_shape(w.shape)}" for w in modern)
        raise MappingError(
            f"no Keras weight has the shape of TF1 variable(s) {shapes}; the unmatched Keras weights are {offered}. "
            "The two models differ in structure (a layer's size, a missing bias, ...): fix build_model or model_fn."
        )
    if ambiguous:
        lines = [f"  {tf1.name} {show_shape(tf1.shape)} could be any of: {', '.join(w.name for w in keras)}"
                 for tf1, keras in ambiguous]
        used: set[str] = set()
        proposal = []
        for tf1, keras in ambiguous:
            choice = next((w for w in keras if w.name not in used), keras[0])
            used.add(choice.name)
            proposal.append(f"{tf1.name!r}: {choice.name!r}")
        suggestion = ", ".join(proposal)
        raise MappingError(
            "ambiguous mapping: the names differ and creation order does not line the shapes up, and several weights "
            "share a shape:\n" + "\n".join(lines)
            + f"\nSettle it in the pair file with the right pairs, e.g. (check each line):\n  variable_map = {{{suggestion}}}"
        )
    return matches
