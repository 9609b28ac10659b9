"""Which Keras weight each trainable TF1 variable is copied into, and through which transform (TensorFlow-free).

Before step 1 the legacy side's initial values are copied into the Keras
model, so both train from the same weights (seeds do not give the same
weights across the two APIs). Every Keras weight gets exactly one `Match`:
the TF1 variable(s) it comes from and the transform between the layouts
(None: the same array). The mapping is, in this order:

1. the pair's `variable_map` (``{tf1 name: keras path}``; a value may be
   ``(keras path(s), transform)`` and a key a tuple of TF1 names, see
   `migrate.parity.transforms`; or a callable taking the TF1 name and
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
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from migrate.parity.transforms import REGISTRY, Transform, TransformError, resolve
from migrate.parity.transforms.base import elements, show_shape, show_shapes

Shape = tuple[int, ...]
VariableMap = Mapping[Any, Any] | Callable[[str], Any]

__all__ = [
    "MappingError", "Match", "Weight", "infer_mapping", "mapping_table", "normalise", "show_shape",
    "to_keras_layout", "to_tf1_layout", "unique_names",
]


class MappingError(ValueError):
    """The TF1 variables and the Keras weights cannot be matched; the message says how to settle it."""


@dataclass(frozen=True)
class Weight:
    """A trainable variable as the mapping sees it.

    `name` is unique on its side (a Keras path, ``#k`` appended where Keras
    names several weights alike); `layer` is the Keras layer's class ("" on
    the TF1 side); `order` is the creation rank (-1: the list is in creation
    order).
    """

    name: str
    shape: Shape
    dtype: str = "float32"
    layer: str = ""
    order: int = -1


@dataclass(frozen=True)
class Match:
    """One Keras weight and where its value comes from.

    legacy      the (first) TF1 variable it comes from; `sources` all of them when a transform reads several
    modern      the Keras weight; `targets` every Keras weight the row's transform writes (this one among them)
    how         "variable_map", "name", "cell layout", "unique shape", "creation order"
    transform   None: the same array; else TF1 layout → Keras layout
    unverified  why stages 1–2 cannot tell this pair from a swap (matched by order among equal constants),
                checked after step 1; "" when the pair is certain or a wrong pair would show in the forward pass
    """

    legacy: Weight
    modern: Weight
    how: str
    transform: Transform | None = None
    sources: tuple[Weight, ...] = ()
    targets: tuple[Weight, ...] = ()
    unverified: str = ""

    @property
    def tf1(self) -> tuple[Weight, ...]:
        return self.sources or (self.legacy,)

    @property
    def keras(self) -> tuple[Weight, ...]:
        return self.targets or (self.modern,)

    @property
    def transform_name(self) -> str:
        return self.transform.name if self.transform is not None else "-"

    @property
    def tf1_label(self) -> str:
        return " + ".join(weight.name for weight in self.tf1)

    def keras_value(self, legacy_values: Mapping[str, Any]) -> np.ndarray:
        """This Keras weight's value from the TF1 values (by TF1 name)."""
        values = [np.asarray(legacy_values[weight.name]) for weight in self.tf1]
        if self.transform is None:
            return values[0]
        produced = self.transform.to_keras(values, [weight.shape for weight in self.keras])
        return produced[self.keras.index(self.modern)]


def normalise(name: str) -> str:
    """``scope/dense/kernel:0`` → ``scope/dense/kernel``: the output index is not part of a variable's name."""
    return name.split(":", 1)[0]


def unique_names(names: Sequence[str]) -> list[str]:
    """Names made unique: the k-th of several alike names gets ``#k`` (Keras 2 names LinearModel's kernels alike)."""
    names = [normalise(name) for name in names]
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    result = []
    for name in names:
        if counts[name] > 1:
            result.append(f"{name}#{seen.get(name, 0)}")
            seen[name] = seen.get(name, 0) + 1
        else:
            result.append(name)
    return result


def to_keras_layout(matches: Sequence[Match], legacy_values: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Keras weight name → its value computed from the TF1 values (the layout every comparison uses)."""
    return {match.modern.name: match.keras_value(legacy_values) for match in matches}


def to_tf1_layout(matches: Sequence[Match], keras_values: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """TF1 name → its value from the Keras values (through each transform's inverse); TransformError if one has none."""
    result: dict[str, np.ndarray] = {}
    for match in matches:
        if match.tf1[0].name in result:
            continue
        values = [np.asarray(keras_values[weight.name]) for weight in match.keras]
        if match.transform is None:
            result[match.legacy.name] = values[0]
            continue
        for weight, value in zip(match.tf1, match.transform.to_tf1(values, [w.shape for w in match.tf1])):
            result[weight.name] = value
    return result


FORGET_BIAS_NOTE = ("lstm_bias folds TF1's default forget_bias 1.0 into the bias; a cell built with another needs "
                    "lstm_bias(forget_bias=...) in variable_map")


def mapping_table(matches: Sequence[Match]) -> str:
    """The table `migrate parity --show-mapping` prints: TF1 name, shape → Keras path, shape, transform, how."""
    header = ("TF1 variable", "shape", "Keras weight", "shape", "transform", "matched by")
    rows = [(m.tf1_label, show_shapes([w.shape for w in m.tf1]), m.modern.name, show_shape(m.modern.shape),
             m.transform_name, m.how + (" (unverified until step 1)" if m.unverified else "")) for m in matches]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    line = lambda row: "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()  # noqa: E731
    notes = sorted({f"note: {m.transform.name}: {m.transform.rounding}; expect rounding-level differences"
                    for m in matches if m.transform is not None and m.transform.rounding})
    notes += sorted({f"note: {m.unverified}" for m in matches if m.unverified})
    notes += sorted({f"note: {m.tf1_label} → {m.modern.name}: {FORGET_BIAS_NOTE}" for m in matches
                     if m.transform is not None and m.transform.name == "lstm_bias" and m.how != "variable_map"})
    return "\n".join([line(header), *(line(row) for row in rows), *notes])


# --- the pair's variable_map ------------------------------------------------------------------------------------

Row = tuple[tuple[Weight, ...], tuple[Weight, ...], "Transform | None"]


def _is_transform(value: Any) -> bool:
    return isinstance(value, Transform) or (isinstance(value, str) and value in REGISTRY)


def _split_value(value: Any) -> tuple[list[Any], Any]:
    """A variable_map value → (Keras references, transform spec or None)."""
    if isinstance(value, (tuple, list)) and len(value) == 2 and _is_transform(value[1]):
        targets = value[0]
        return (list(targets) if isinstance(targets, (tuple, list)) else [targets]), value[1]
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return [value], None
    if isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[1], str):
        resolve(value[1])  # raises TransformError listing the named transforms
    raise MappingError(f"variable_map value {value!r}: give a Keras weight path (or its index in "
                       "model.trainable_weights), or (path or [paths], transform)")


class _Lookup:
    """Names of both sides, accepting ':0' suffixes, Keras indexes and (for alike Keras names) their '#k' forms."""

    def __init__(self, legacy: Sequence[Weight], modern: Sequence[Weight]) -> None:
        self.legacy, self.modern = list(legacy), list(modern)
        self.legacy_by_name = {w.name: w for w in legacy}
        self.modern_by_name = {w.name: w for w in modern}

    def tf1(self, name: Any, problems: list[str]) -> Weight | None:
        weight = self.legacy_by_name.get(normalise(str(name)))
        if weight is None:
            problems.append(f"variable_map names the TF1 variable {name!r}, which the model_fn does not create "
                            f"(trainable variables: {', '.join(w.name for w in self.legacy)})")
        return weight

    def keras(self, reference: Any, problems: list[str]) -> Weight | None:
        if isinstance(reference, int) and not isinstance(reference, bool):
            if -len(self.modern) <= reference < len(self.modern):
                return self.modern[reference]
            problems.append(f"variable_map names Keras weight index {reference}; the model has {len(self.modern)} "
                            "trainable weights (index into model.trainable_weights)")
            return None
        name = normalise(str(reference))
        if name in self.modern_by_name:
            return self.modern_by_name[name]
        alike = [w.name for w in self.modern if w.name.split("#", 1)[0] == name]
        if alike:
            problems.append(f"variable_map names the Keras weight {reference!r}, and the model has {len(alike)} weights "
                            f"named so: address one as {', '.join(alike)} (or by its index in model.trainable_weights)")
        else:
            problems.append(f"variable_map names the Keras weight {reference!r}, which build_model's model does not "
                            f"have (trainable weights: {', '.join(w.name for w in self.modern)})")
        return None


def _map_items(variable_map: VariableMap, legacy: Sequence[Weight]) -> list[tuple[Any, Any]]:
    if callable(variable_map) and not isinstance(variable_map, Mapping):
        items = [(weight.name, variable_map(weight.name)) for weight in legacy]
        return [(key, value) for key, value in items if value is not None]
    return list(variable_map.items())


def _rows(variable_map: VariableMap, lookup: _Lookup) -> list[Row]:
    """The variable_map's rows, every problem collected: unknown names, names given twice, transforms that do not fit."""
    problems: list[str] = []
    rows: list[Row] = []
    tf1_seen: dict[str, str] = {}
    keras_seen: dict[str, str] = {}
    for key, value in _map_items(variable_map, lookup.legacy):
        keys = list(key) if isinstance(key, tuple) else [key]
        try:
            references, spec = _split_value(value)
            transform = resolve(spec) if spec is not None else None
        except (MappingError, TransformError) as error:
            problems.append(f"variable_map[{key!r}]: {str(error).rstrip()}")
            continue
        sources = [lookup.tf1(name, problems) for name in keys]
        targets = [lookup.keras(reference, problems) for reference in references]
        if any(w is None for w in sources) or any(w is None for w in targets):
            continue
        label = f"{key!r}"
        for weight in sources:
            if weight.name in tf1_seen:
                problems.append(f"variable_map names the TF1 variable {weight.name} twice ({tf1_seen[weight.name]} and "
                                f"{label}): a TF1 variable goes to one row; put every Keras weight it fills in that row")
            tf1_seen[weight.name] = label
        for weight in targets:
            if weight.name in keras_seen:
                problems.append(f"variable_map sends both {keras_seen[weight.name]} and {label} to the Keras weight "
                                f"{weight.name}: each Keras weight takes one TF1 value; fix one of the two rows")
            keras_seen[weight.name] = label
        problem = _row_problem(tuple(sources), tuple(targets), transform, lookup.modern_by_name)
        if problem:
            problems.append(problem)
            continue
        rows.append((tuple(sources), tuple(targets), transform))
    problems += _cell_rows_problems(rows)
    if problems:
        raise MappingError("; ".join(problems) + ". Fix variable_map in the pair file (or remove it to infer the mapping).")
    return rows


def _cell_rows_problems(rows: Sequence[Row]) -> list[str]:
    """An LSTM kernel converted with lstm_kernel whose bias is copied as it is: the gates would be mixed up."""
    problems = []
    by_target = {target.name: (sources, transform) for sources, targets, transform in rows for target in targets}
    for sources, targets, transform in rows:
        if transform is None or transform.name != "lstm_kernel":
            continue
        bias = targets[0].name.rpartition("/")[0] + "/bias"
        if bias in by_target and by_target[bias][1] is None:
            problems.append(f"variable_map copies {by_target[bias][0][0].name} onto the LSTM bias {bias} as it is, while "
                            f"{sources[0].name} goes through lstm_kernel: TF1's gates are i, j, f, o and its forget bias is "
                            f"added at run time; write ({bias!r}, 'lstm_bias')")
    return problems


def _row_problem(sources: tuple[Weight, ...], targets: tuple[Weight, ...], transform: Transform | None,
                 keras_weights: Mapping[str, Weight]) -> str | None:
    tf1_shapes, keras_shapes = [w.shape for w in sources], [w.shape for w in targets]
    what = f"{' + '.join(w.name for w in sources)} {show_shapes(tf1_shapes)} onto {' + '.join(w.name for w in targets)} " \
           f"{show_shapes(keras_shapes)}"
    if transform is not None:
        why = transform.fits(tf1_shapes, keras_shapes)
        return f"variable_map maps {what} with {transform.name}, which does not fit: {why}" if why else None
    if len(sources) != 1 or len(targets) != 1:
        return (f"variable_map maps {what} without a transform: several variables on one side need one "
                f"(e.g. lstm_kernel, gru_kernel, split, concat)")
    if tf1_shapes[0] != keras_shapes[0]:
        fitting = _fitting_transforms(tf1_shapes[0], keras_shapes[0])
        recurrent = keras_weights.get(targets[0].name.rpartition("/")[0] + "/recurrent_kernel")
        if recurrent is not None and REGISTRY["lstm_kernel"].fits(tf1_shapes, [keras_shapes[0], recurrent.shape]) is None:
            hint = (f"; a TF1 LSTM cell's kernel feeds both Keras kernels: write "
                    f"([{targets[0].name!r}, {recurrent.name!r}], 'lstm_kernel')")
        elif fitting:
            hint = f"; {', '.join(t.name for t in fitting)} fits: write (path, {fitting[0].name!r})"
        elif elements(tf1_shapes[0]) == elements(keras_shapes[0]):
            hint = "; the same numbers in another layout need a transform (reshape, transpose, function)"
        else:
            hint = ""
        return f"variable_map maps {what}: the shapes differ{hint}"
    return None


# --- inference ---------------------------------------------------------------------------------------------------

ROLE_ALIASES = {"weights": "kernel", "w": "kernel", "biases": "bias", "b": "bias", "scale": "gamma", "offset": "beta",
                "embedding": "embeddings", "filter": "kernel", "filters": "kernel"}
LAYER_KINDS = (("lstm", "lstm"), ("gru", "gru"), ("conv", "conv"), ("embed", "embedding"), ("norm", "normalization"),
               ("bn", "normalization"), ("ln", "normalization"), ("attention", "dense"), ("dense", "dense"),
               ("fc", "dense"), ("logits", "dense"), ("linear", "dense"), ("output", "dense"), ("query", "dense"),
               ("key", "dense"), ("value", "dense"), ("proj", "dense"))


@functools.lru_cache(maxsize=8192)
def _canonical_tuple(name: str) -> tuple[str, ...]:
    tokens = normalise(name).split("#", 1)[0].split("/")
    return (*tokens[:-1], ROLE_ALIASES.get(tokens[-1].lower(), tokens[-1].lower()))


def _canonical(name: str) -> list[str]:
    return list(_canonical_tuple(name))


def _kind(text: str) -> str:
    lowered = text.lower()
    return next((kind for token, kind in LAYER_KINDS if token in lowered), "")


def _fitting_transforms(tf1: Shape, keras: Shape) -> list[Transform]:
    """The inferable one-to-one transforms that turn `tf1` into `keras` (shapes that differ)."""
    if tf1 == keras:
        return []
    return [t for t in REGISTRY.values() if t.inferable and t.sources == 1 and t.targets == 1 and t.fits([tf1], [keras]) is None]


@functools.lru_cache(maxsize=4096)
def _inferred_transform(tf1: Shape, keras: Shape) -> tuple[bool, Transform | None]:
    """(fits, transform): equal shapes need none; else exactly one fitting transform (or one family of equal results)."""
    if tf1 == keras:
        return True, None
    fitting = _fitting_transforms(tf1, keras)
    families = {t.family or t.name for t in fitting}
    return (True, fitting[0]) if len(families) == 1 else (False, None)


class _Inference:
    """The weights still unmatched on both sides and the matches found so far."""

    def __init__(self, legacy: Sequence[Weight], modern: Sequence[Weight]) -> None:
        self.legacy, self.modern = list(legacy), list(modern)
        self.modern_rank = {w.name: (w.order if w.order >= 0 else index) for index, w in enumerate(self.modern)}
        self.matches: list[Match] = []
        self.taken_legacy: set[str] = set()
        self.taken_modern: set[str] = set()

    def free_legacy(self) -> list[Weight]:
        return [w for w in self.legacy if w.name not in self.taken_legacy]

    def free_modern(self) -> list[Weight]:
        """Unmatched Keras weights in creation order."""
        return sorted((w for w in self.modern if w.name not in self.taken_modern), key=lambda w: self.modern_rank[w.name])

    def add(self, sources: Sequence[Weight], targets: Sequence[Weight], transform: Transform | None, how: str) -> None:
        sources, targets = tuple(sources), tuple(targets)
        for target in targets:
            self.matches.append(Match(sources[0], target, how, transform, sources if len(sources) > 1 else (),
                                      targets if len(targets) > 1 else ()))
        self.taken_legacy.update(w.name for w in sources)
        self.taken_modern.update(w.name for w in targets)

    def candidates(self, weight: Weight, others: Sequence[Weight], legacy_side: bool) -> list[tuple[Weight, Transform | None]]:
        result = []
        for other in others:
            tf1, keras = (weight, other) if legacy_side else (other, weight)
            fits, transform = _inferred_transform(tf1.shape, keras.shape)
            if fits:
                result.append((other, transform))
        return result

    # 2. names ----------------------------------------------------------------------------------------------------
    def by_name(self) -> None:
        """Equal names, then names one of which is the other's tail (2 parts or more), both unique."""
        for exact in (True, False):
            key = _canonical_tuple if exact else (lambda name: _canonical_tuple(name)[-2:])
            buckets: dict[tuple[str, ...], tuple[list[Weight], list[Weight]]] = {}
            for side, weights in ((0, self.free_legacy()), (1, self.free_modern())):
                for weight in weights:
                    buckets.setdefault(key(weight.name), ([], []))[side].append(weight)
            for weight in self.free_legacy():
                legacy, modern = buckets[key(weight.name)]
                tokens = _canonical(weight.name)
                twins = [m for m in modern if m.name not in self.taken_modern and _names_agree(tokens, _canonical(m.name), exact)]
                if len(twins) != 1:
                    continue
                twin = twins[0]
                rivals = [w for w in legacy if w.name not in self.taken_legacy
                          and _names_agree(_canonical(w.name), _canonical(twin.name), exact)]
                fits, transform = _inferred_transform(weight.shape, twin.shape)
                if fits and rivals == [weight]:
                    self.add([weight], [twin], transform, "name")

    # 3. recurrent cells ------------------------------------------------------------------------------------------
    def cells(self) -> None:
        """Keras recurrent layers whose TF1 cell is the only one that fits, or one of as many alike cells (by order)."""
        found = _cell_candidates(self.free_legacy(), self.free_modern())
        used: set[str] = set()
        for _, fitting in found:
            options = [(kind, rows) for kind, rows in fitting if rows[0][0][0].name not in used]
            alike = [other for _, other in found if [rows[0][0][0].name for _, rows in other]
                     == [rows[0][0][0].name for _, rows in fitting]]
            if not options or len(alike) != len(fitting):
                continue
            kind, rows = options[0]
            used.add(rows[0][0][0].name)
            how = f"{kind} cell layout" + (", creation order" if len(fitting) > 1 else "")
            for sources, targets, transform in rows:
                self.add(sources, targets, transform, how)

    # 5. unique shapes --------------------------------------------------------------------------------------------
    def by_unique_shape(self) -> None:
        """A shape only one weight on each side has; then a partner only one transform (or shape) allows, both ways."""
        changed = True
        while changed:
            modern, legacy = self.free_modern(), self.free_legacy()
            found = []
            for weight in legacy:
                same = [w for w in modern if w.shape == weight.shape]
                if len(same) == 1 and [w for w in legacy if w.shape == weight.shape] == [weight]:
                    found.append((weight, same[0], None))
            if found:
                for weight, other, transform in found:
                    self.add([weight], [other], transform, "unique shape")
                continue
            for weight in legacy:
                options = self.candidates(weight, modern, legacy_side=True)
                if len(options) == 1 and len(self.candidates(options[0][0], legacy, legacy_side=False)) == 1:
                    found.append((weight, *options[0]))
            for weight, other, transform in found:
                self.add([weight], [other], transform, "unique shape")
            changed = bool(found)

    # 6. creation order -------------------------------------------------------------------------------------------
    def by_creation_order(self) -> bool:
        """Both sides' remaining weights in creation order (within a layer by role: LayerNorm's beta/gamma are created
        in either order), paired when every pair fits and the names do not argue for another pairing."""
        legacy, modern = _roles_sorted(self.free_legacy()), _roles_sorted(self.free_modern())
        if len(legacy) != len(modern):
            return False
        pairs = [(a, b, _inferred_transform(a.shape, b.shape)) for a, b in zip(legacy, modern)]
        if not all(fits for _, _, (fits, _) in pairs):
            return False
        # the order must not contradict the names: another pairing whose names agree better wins (a refusal)
        scored = sorted(((_name_score(a, b), a.name, b.name) for a in legacy for b, _ in self.candidates(a, modern, True)),
                        reverse=True)
        used: set[tuple[str, str]] = set()
        by_names = 0
        for score, a_name, b_name in scored:
            if ("tf1", a_name) not in used and ("keras", b_name) not in used:
                used.update((("tf1", a_name), ("keras", b_name)))
                by_names += score
        if by_names > sum(_name_score(a, b) for a, b, _ in pairs):
            return False
        for a, b, (_, transform) in pairs:
            self.add([a], [b], transform, "creation order")
        return True


LAYER_ROLES = frozenset({"kernel", "recurrent_kernel", "bias", "gamma", "beta", "moving_mean", "moving_variance",
                         "embeddings", "depthwise_kernel", "pointwise_kernel"})
"""What a layer's weights are called (after ROLE_ALIASES); a scope holding other names is not one layer."""


def _roles_sorted(weights: Sequence[Weight]) -> list[Weight]:
    """The weights in their order, each run of one layer's weights (same scope) sorted by role (kernel, bias, ...)."""
    result: list[Weight] = []
    run: list[Weight] = []
    for weight in [*weights, None]:
        scope = weight.name.rpartition("/")[0] if weight is not None else None
        if run and (weight is None or scope != run[0].name.rpartition("/")[0]):
            roles = [_canonical(w.name)[-1] for w in run]
            result += sorted(run, key=lambda w: _canonical(w.name)[-1]) if set(roles) <= LAYER_ROLES else run
            run = []
        if weight is not None:
            run.append(weight)
    return result


def _names_agree(left: list[str], right: list[str], exact: bool) -> bool:
    if exact:
        return left == right
    shorter, longer = sorted((left, right), key=len)
    return len(shorter) >= 2 and longer[-len(shorter):] == shorter


CELL_SUFFIXES = {"lstm": (("kernel",), ("bias",)), "gru": (("gates", "kernel"), ("candidate", "kernel"))}


def _cell_candidates(legacy: Sequence[Weight], modern: Sequence[Weight]) -> list[tuple[str, list]]:
    """For each Keras recurrent layer (kernel, recurrent_kernel, bias), the TF1 cells whose variables fit it."""
    by_name = {w.name: w for w in modern}
    legacy_by_name = {w.name: w for w in legacy}
    result = []
    for recurrent in modern:
        if not recurrent.name.endswith("/recurrent_kernel") or len(recurrent.shape) != 2:
            continue
        prefix = recurrent.name[: -len("recurrent_kernel")]
        kernel, bias = by_name.get(prefix + "kernel"), by_name.get(prefix + "bias")
        if kernel is None or bias is None:
            continue
        fitting = []
        for weight in legacy:
            scope = weight.name.rpartition("/")[0] + "/"
            if weight.name.endswith("/kernel") and not scope.endswith(("/gates/", "/candidate/")):
                tf1_bias = legacy_by_name.get(scope + "bias")
                rows = [((weight,), (kernel, recurrent), REGISTRY["lstm_kernel"])]
                if tf1_bias is not None:
                    rows.append(((tf1_bias,), (bias,), REGISTRY["lstm_bias"]))
                    if all(t.fits([w.shape for w in s], [w.shape for w in k]) is None for s, k, t in rows):
                        fitting.append(("LSTM", rows))
            if weight.name.endswith("/gates/kernel"):
                cell = weight.name[: -len("gates/kernel")]
                parts = [legacy_by_name.get(cell + suffix) for suffix in ("candidate/kernel", "gates/bias", "candidate/bias")]
                if None in parts:
                    continue
                rows = [((weight, parts[0]), (kernel, recurrent), REGISTRY["gru_kernel"]),
                        ((parts[1], parts[2]), (bias,), REGISTRY["gru_bias"])]
                if all(t.fits([w.shape for w in s], [w.shape for w in k]) is None for s, k, t in rows):
                    fitting.append(("GRU", rows))
        result.append(((kernel, recurrent, bias), fitting))
    return result


def _maximum_matching(legacy: Sequence[Weight], options: Mapping[str, list[Weight]]) -> dict[str, str]:
    """TF1 name → Keras name for as many pairs as the candidates allow (augmenting paths)."""
    owner: dict[str, str] = {}

    def augment(name: str, seen: set[str]) -> bool:
        for other in options[name]:
            if other.name in seen:
                continue
            seen.add(other.name)
            if other.name not in owner or augment(owner[other.name], seen):
                owner[other.name] = name
                return True
        return False

    for weight in legacy:
        augment(weight.name, set())
    return {tf1: keras for keras, tf1 in owner.items()}


def _no_counterpart(state: _Inference) -> str | None:
    """The weights nothing on the other side can take (by shape or a fitting transform), or None when all can pair."""
    legacy, modern = state.free_legacy(), state.free_modern()
    options = {w.name: [o for o, _ in state.candidates(w, modern, legacy_side=True)] for w in legacy}
    paired = _maximum_matching(legacy, options)
    lonely_legacy = [w for w in legacy if w.name not in paired]
    taken = set(paired.values())
    lonely_modern = [w for w in modern if w.name not in taken]
    if not lonely_legacy and not lonely_modern:
        return None

    def listing(weights: Sequence[Weight], others: Sequence[Weight], legacy_side: bool) -> str:
        lines = []
        for w in weights:
            rivals = [o.name for o, _ in state.candidates(w, others, legacy_side=legacy_side)]
            same_size = [o for o in others if elements(o.shape) == elements(w.shape) and o.name not in rivals]
            if rivals:
                own_side = state.free_legacy() if legacy_side else state.free_modern()
                peers = [p.name for p in own_side if any(o.name in rivals for o, _ in state.candidates(
                    p, others, legacy_side=legacy_side))]
                hint = (f" — {len(peers)} {'TF1' if legacy_side else 'Keras'} weights ({', '.join(peers)}) for "
                        f"{len(rivals)} that fit them ({', '.join(rivals)}): one of them has no counterpart")
            elif same_size:
                hint = (f" — as many elements as {', '.join(f'{o.name} {show_shape(o.shape)}' for o in same_size)}: if "
                        "it is the same weight in another layout, map it with a transform (reshape, transpose, "
                        "function, ...)")
            else:
                hint = ""
            lines.append(f"  {w.name} {show_shape(w.shape)}, {elements(w.shape)} elements{hint}")
        return "\n".join(lines) or "  none"

    return (f"weights with no counterpart (no weight left on the other side has their shape, and no named transform "
            f"fits):\nTF1 variables ({len(lonely_legacy)} of {len(state.legacy)}):\n"
            f"{listing(lonely_legacy, modern, True)}\n"
            f"Keras weights ({len(lonely_modern)} of {len(state.modern)}):\n{listing(lonely_modern, legacy, False)}\n"
            "The two models differ in structure (a layer's size, a missing bias, a cell's peepholes, ...): fix build_model "
            "or model_fn, or map the weights in variable_map.")


@functools.lru_cache(maxsize=8192)
def _scope_words(name: str) -> frozenset[str]:
    return frozenset(part for token in _canonical(name)[:-1] for part in re.split(r"[_\d]+", token.lower()) if part)


def _name_score(tf1: Weight, keras: Weight) -> int:
    """Shared words of the scopes plus an agreeing role (kernel, bias, ...)."""
    role = 1 if _canonical(tf1.name)[-1] == _canonical(keras.name)[-1] else 0
    return role + len(_scope_words(tf1.name) & _scope_words(keras.name))


def _similarity(tf1: Weight, keras: Weight, tf1_rank: float, keras_rank: float) -> tuple[float, float]:
    """How alike two candidates are: name (shared words, role) and layer type first, then closeness in creation order."""
    kinds = _kind("/".join(_canonical(tf1.name)[:-1])), _kind(keras.layer or "/".join(_canonical(keras.name)[:-1]))
    kind = 1 if kinds[0] and kinds[0] == kinds[1] else 0
    return (_name_score(tf1, keras) + kind + (1 if tf1.shape == keras.shape else 0), -abs(tf1_rank - keras_rank))


MAX_SHOWN = 5
"""Candidates listed per ambiguous weight (best first); the proposal below the list names every one anyway."""


def _proposal(state: _Inference, constants: tuple[Mapping[str, Any], Mapping[str, Any]]) -> str:
    """The ambiguity, each TF1 variable's candidates best first, and a variable_map naming every Keras weight once."""
    legacy, modern = state.free_legacy(), state.free_modern()
    legacy_rank = {w.name: index / max(1, len(legacy) - 1) for index, w in enumerate(legacy)}
    modern_rank = {w.name: index / max(1, len(modern) - 1) for index, w in enumerate(modern)}
    scored = []
    lines = []
    for weight in legacy:
        options = state.candidates(weight, modern, legacy_side=True)
        ranked = sorted(options, key=lambda item: _similarity(weight, item[0], legacy_rank[weight.name],
                                                                modern_rank[item[0].name]), reverse=True)
        shown = ", ".join(o.name + (f" ({t.name})" if t else "") for o, t in ranked[:MAX_SHOWN])
        more = f" and {len(ranked) - MAX_SHOWN} more" if len(ranked) > MAX_SHOWN else ""
        lines.append(f"  {weight.name} {show_shape(weight.shape)} could be any of: {shown}{more}")
        scored += [(_similarity(weight, o, legacy_rank[weight.name], modern_rank[o.name]), weight, o, t) for o, t in options]
    used_legacy: set[str] = set()
    used_modern: set[str] = set()
    chosen: dict[str, tuple[Weight, Transform | None]] = {}
    for _, weight, other, transform in sorted(scored, key=lambda item: item[0], reverse=True):
        if weight.name not in used_legacy and other.name not in used_modern:
            chosen[weight.name] = (other, transform)
            used_legacy.add(weight.name)
            used_modern.add(other.name)
    proposal = []
    for weight in legacy:
        if weight.name not in chosen:
            continue
        other, transform = chosen[weight.name]
        value = f"({other.name!r}, {transform.name!r})" if transform else repr(other.name)
        same = _equal_constants(weight, other, constants)
        proposal.append(f"    {weight.name!r}: {value},"
                        + ("  # both start at the same constant: check this line by name" if same is not None else ""))
    return ("ambiguous mapping: the names differ, creation order does not line the weights up, and several share a "
            "shape:\n" + "\n".join(lines)
            + "\nSettle it in the pair file (candidates ranked by name, creation order and layer type; check each line):\n"
            "  variable_map = {\n" + "\n".join(proposal) + "\n  }")


def _equal_constants(tf1: Weight, keras: Weight, constants: tuple[Mapping[str, Any], Mapping[str, Any]]) -> float | None:
    left, right = constants[0].get(tf1.name), constants[1].get(keras.name)
    return left if left is not None and left == right else None


def _mark_unverified(matches: list[Match], constants: tuple[Mapping[str, Any], Mapping[str, Any]]) -> list[Match]:
    """Pairs matched by order among weights of one shape that all start at the same constant: a swap looks the same."""
    ordered = [m for m in matches if m.how == "creation order" and m.transform is None]
    result = []
    for match in matches:
        value = _equal_constants(match.legacy, match.modern, constants) if match in ordered else None
        peers = [m for m in ordered if m is not match and m.legacy.shape == match.legacy.shape
                 and _equal_constants(m.legacy, m.modern, constants) == value] if value is not None else []
        if peers:
            group = sorted(m.modern.name for m in [match, *peers])
            why = (f"{', '.join(group)} are matched by creation order among weights of shape "
                   f"{show_shape(match.legacy.shape)} that all start at {value:g}: stages 1-2 cannot tell a swap; "
                   "step 1 checks them")
            match = Match(match.legacy, match.modern, match.how, match.transform, match.sources, match.targets, why)
        result.append(match)
    return result


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
                               "give them unique names (migrate.parity.mapping.unique_names)")
    state = _Inference(legacy, modern)
    if variable_map is not None:
        for sources, targets, transform in _rows(variable_map, _Lookup(legacy, modern)):
            state.add(sources, targets, transform, "variable_map")
    state.cells()
    state.by_name()
    problem = _no_counterpart(state)
    if problem:
        raise MappingError(problem)
    state.by_unique_shape()
    constants = (dict(legacy_constants or {}), dict(modern_constants or {}))
    if state.free_legacy() and not state.by_creation_order():
        raise MappingError(_proposal(state, constants))
    order = {w.name: index for index, w in enumerate(legacy)}
    keras_order = {w.name: index for index, w in enumerate(modern)}
    matches = sorted(state.matches, key=lambda m: (order[m.legacy.name], keras_order[m.modern.name]))
    return _mark_unverified(matches, constants)
