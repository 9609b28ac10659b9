"""How alike two weights' names are: roles (kernel, bias, ...), scope words, layer kinds (TensorFlow-free).

Used to match by name, to keep creation order honest (a layer's weights by
role; names that argue for another pairing) and to rank candidates.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from migrate.core.mapping.records import Weight, normalise

ROLE_ALIASES = {"weights": "kernel", "w": "kernel", "biases": "bias", "b": "bias", "scale": "gamma", "offset": "beta",
                "embedding": "embeddings", "filter": "kernel", "filters": "kernel"}


LAYER_KINDS = (("lstm", "lstm"), ("gru", "gru"), ("conv", "conv"), ("embed", "embedding"), ("norm", "normalization"),
               ("bn", "normalization"), ("ln", "normalization"), ("attention", "dense"), ("dense", "dense"),
               ("fc", "dense"), ("logits", "dense"), ("linear", "dense"), ("output", "dense"), ("query", "dense"),
               ("key", "dense"), ("value", "dense"), ("proj", "dense"))


@functools.lru_cache(maxsize=8192)
def canonical_tuple(name: str) -> tuple[str, ...]:
    tokens = normalise(name).split("#", 1)[0].split("/")
    return (*tokens[:-1], ROLE_ALIASES.get(tokens[-1].lower(), tokens[-1].lower()))


def canonical(name: str) -> list[str]:
    return list(canonical_tuple(name))


def layer_kind(text: str) -> str:
    lowered = text.lower()
    return next((kind for token, kind in LAYER_KINDS if token in lowered), "")


LAYER_ROLES = frozenset({"kernel", "recurrent_kernel", "bias", "gamma", "beta", "moving_mean", "moving_variance",
                         "embeddings", "depthwise_kernel", "pointwise_kernel"})
"""What a layer's weights are called (after ROLE_ALIASES); a scope holding other names is not one layer."""


def roles_sorted(weights: Sequence[Weight]) -> list[Weight]:
    """The weights in their order, each run of one layer's weights (same scope) sorted by role (kernel, bias, ...)."""
    result: list[Weight] = []
    run: list[Weight] = []
    for weight in [*weights, None]:
        scope = weight.name.rpartition("/")[0] if weight is not None else None
        if run and (weight is None or scope != run[0].name.rpartition("/")[0]):
            roles = [canonical(w.name)[-1] for w in run]
            result += sorted(run, key=lambda w: canonical(w.name)[-1]) if set(roles) <= LAYER_ROLES else run
            run = []
        if weight is not None:
            run.append(weight)
    return result


def names_agree(left: list[str], right: list[str], exact: bool) -> bool:
    if exact:
        return left == right
    shorter, longer = sorted((left, right), key=len)
    return len(shorter) >= 2 and longer[-len(shorter):] == shorter


@functools.lru_cache(maxsize=8192)
def scope_words(name: str) -> frozenset[str]:
    return frozenset(part for token in canonical(name)[:-1] for part in re.split(r"[_\d]+", token.lower()) if part)


def name_score(tf1: Weight, keras: Weight) -> int:
    """Shared words of the scopes plus an agreeing role (kernel, bias, ...)."""
    role = 1 if canonical(tf1.name)[-1] == canonical(keras.name)[-1] else 0
    return role + len(scope_words(tf1.name) & scope_words(keras.name))


def similarity(tf1: Weight, keras: Weight, tf1_rank: float, keras_rank: float) -> tuple[float, float]:
    """How alike two candidates are: name (shared words, role) and layer type first, then closeness in creation order."""
    kinds = layer_kind("/".join(canonical(tf1.name)[:-1])), layer_kind(keras.layer or "/".join(canonical(keras.name)[:-1]))
    kind = 1 if kinds[0] and kinds[0] == kinds[1] else 0
    return (name_score(tf1, keras) + kind + (1 if tf1.shape == keras.shape else 0), -abs(tf1_rank - keras_rank))
