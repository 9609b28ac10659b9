"""What the mapping says when it cannot finish: weights with no counterpart first, then the ambiguity with a
ranked `variable_map` naming each Keras weight once; and which order guesses step 1 must check (TensorFlow-free).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from migrate.core.mapping.inference import Inference, maximum_matching
from migrate.core.mapping.names import similarity
from migrate.core.mapping.records import Match, Weight
from migrate.core.transforms import Transform
from migrate.core.transforms.base import elements, show_shape


def no_counterpart(state: Inference) -> str | None:
    """The weights nothing on the other side can take (by shape or a fitting transform), or None when all can pair."""
    legacy, modern = state.free_legacy(), state.free_modern()
    options = {w.name: [o for o, _ in state.candidates(w, modern, legacy_side=True)] for w in legacy}
    paired = maximum_matching(legacy, options)
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


MAX_SHOWN = 5
"""Candidates listed per ambiguous weight (best first); the proposal below the list names every one anyway."""


def proposal(state: Inference, constants: tuple[Mapping[str, Any], Mapping[str, Any]]) -> str:
    """The ambiguity, each TF1 variable's candidates best first, and a variable_map naming every Keras weight once."""
    legacy, modern = state.free_legacy(), state.free_modern()
    legacy_rank = {w.name: index / max(1, len(legacy) - 1) for index, w in enumerate(legacy)}
    modern_rank = {w.name: index / max(1, len(modern) - 1) for index, w in enumerate(modern)}
    scored = []
    lines = []
    for weight in legacy:
        options = state.candidates(weight, modern, legacy_side=True)
        ranked = sorted(options, key=lambda item: similarity(weight, item[0], legacy_rank[weight.name],
                                                                modern_rank[item[0].name]), reverse=True)
        shown = ", ".join(o.name + (f" ({t.name})" if t else "") for o, t in ranked[:MAX_SHOWN])
        more = f" and {len(ranked) - MAX_SHOWN} more" if len(ranked) > MAX_SHOWN else ""
        lines.append(f"  {weight.name} {show_shape(weight.shape)} could be any of: {shown}{more}")
        scored += [(similarity(weight, o, legacy_rank[weight.name], modern_rank[o.name]), weight, o, t) for o, t in options]
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
        same = equal_constants(weight, other, constants)
        proposal.append(f"    {weight.name!r}: {value},"
                        + ("  # both start at the same constant: check this line by name" if same is not None else ""))
    return ("ambiguous mapping: the names differ, creation order does not line the weights up, and several share a "
            "shape:\n" + "\n".join(lines)
            + "\nSettle it in the pair file (candidates ranked by name, creation order and layer type; check each line):\n"
            "  variable_map = {\n" + "\n".join(proposal) + "\n  }")


def equal_constants(tf1: Weight, keras: Weight, constants: tuple[Mapping[str, Any], Mapping[str, Any]]) -> float | None:
    left, right = constants[0].get(tf1.name), constants[1].get(keras.name)
    return left if left is not None and left == right else None


def mark_unverified(matches: list[Match], constants: tuple[Mapping[str, Any], Mapping[str, Any]]) -> list[Match]:
    """Pairs matched by order among weights of one shape that all start at the same constant: a swap looks the same."""
    ordered = [m for m in matches if m.how == "creation order" and m.transform is None]
    result = []
    for match in matches:
        value = equal_constants(match.legacy, match.modern, constants) if match in ordered else None
        peers = [m for m in ordered if m is not match and m.legacy.shape == match.legacy.shape
                 and equal_constants(m.legacy, m.modern, constants) == value] if value is not None else []
        if peers:
            group = sorted(m.modern.name for m in [match, *peers])
            why = (f"{', '.join(group)} are matched by creation order among weights of shape "
                   f"{show_shape(match.legacy.shape)} that all start at {value:g}: stages 1-2 cannot tell a swap; "
                   "step 1 checks them")
            match = Match(match.legacy, match.modern, match.how, match.transform, match.sources, match.targets, why)
        result.append(match)
    return result
