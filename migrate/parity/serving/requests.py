"""The requests both SavedModels answer: N examples of the pair's input, as a client would send them.

A signature input the TF1 receiver parses (a string vector while the receiver
holds ParseExample ops) gets serialized `tf.Example`s, built from the features
with the receiver's own feature spec (dtype and kind read from its graph); any
other input gets the raw feature tensor of the same key (or the single
feature tensor), in the input's dtype.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from migrate.core.arrays import Array
from migrate.parity.serving.surface import ParsedFeature, ServingError, SignatureInfo

REQUESTS = 256
"""How many examples every signature is asked about (one batch)."""


@dataclass
class RequestSource:
    """N examples' features (a dict of arrays or one array, N rows each) and where they came from."""

    features: Any
    count: int
    origin: str


def _columns(features: Any) -> dict[str, Array]:
    """A batch's features as named arrays (one tensor under the name ``""``), to cut and join them alike."""
    items = features.items() if isinstance(features, Mapping) else [("", features)]
    return {key: np.asarray(value) for key, value in items}


def take_examples(named_datasets: list[tuple[str, Callable[[], Any]]], count: int = REQUESTS) -> RequestSource:
    """The first `count` examples of the datasets in turn (eval, then train if eval is shorter); each is made
    only when needed."""
    parts: list[dict[str, Array]] = []
    taken, origins, single = 0, [], False
    for name, make_dataset in named_datasets:
        before = taken
        for batch in make_dataset():
            features = batch[0] if isinstance(batch, (tuple, list)) else batch
            single, columns = not isinstance(features, Mapping), _columns(features)
            rows = min(len(next(iter(columns.values()))), count - taken)
            parts.append({key: column[:rows] for key, column in columns.items()})
            taken += rows
            if taken >= count:
                break
        if taken > before:
            origins.append(f"{taken - before} {name}")
        if taken >= count:
            break
    if not parts:
        raise ServingError("the pair's datasets give no example to send as a request.")
    joined = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    return RequestSource(joined[""] if single else joined, taken, " + ".join(origins) + " examples")


def _feature(features: Any, key: str, keys: Collection[str]) -> Any:
    """The feature `key` of a dict of features; a single tensor stands for the only one of `keys`."""
    if isinstance(features, Mapping):
        return features.get(key)
    return features if len(keys) == 1 else None


def _feature_names(features: Any) -> list[str]:
    return sorted(features) if isinstance(features, Mapping) else ["(one tensor)"]


def _example_feature(values: Array, parsed: ParsedFeature) -> Any:
    import tensorflow as tf

    flat = np.asarray(values).ravel()
    if parsed.dtype == "string":
        return tf.train.Feature(bytes_list=tf.train.BytesList(
            value=[item if isinstance(item, bytes) else str(item).encode() for item in flat]))
    if parsed.dtype in ("float32", "float64", "float16", "bfloat16"):
        return tf.train.Feature(float_list=tf.train.FloatList(value=flat.astype(np.float32).tolist()))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=flat.astype(np.int64).tolist()))


def serialized_examples(source: RequestSource, parsed: Mapping[str, ParsedFeature]) -> Array:
    """One serialized `tf.Example` per request, holding every parsed feature the source has."""
    import tensorflow as tf

    columns = {key: _feature(source.features, key, parsed) for key in parsed}
    missing = [key for key, value in columns.items() if value is None]
    if len(missing) == len(columns):
        raise ServingError(f"the TF1 receiver parses {sorted(parsed)} but the input's features are "
                           f"{_feature_names(source.features)}: no feature to put into a tf.Example.")
    present = {key: np.asarray(value) for key, value in columns.items() if value is not None}
    examples = []
    for row in range(source.count):
        feature = {key: _example_feature(values[row], parsed[key]) for key, values in present.items()}
        examples.append(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    return np.array(examples, dtype=object)


def _is_examples_input(key: str, info: Any, features: Any, parsed: Mapping[str, ParsedFeature]) -> bool:
    if not parsed or info.dtype != "string" or info.shape is None or len(info.shape) != 1:
        return False
    if isinstance(features, Mapping) and key in features:
        return np.asarray(features[key]).dtype.kind not in "SUO"
    return True


def signature_inputs(signature: SignatureInfo, source: RequestSource,
                     parsed: Mapping[str, ParsedFeature]) -> dict[str, Array]:
    """The arrays a client sends to `signature` (the TF1 side's, the reference) for the source's examples."""
    import tensorflow as tf

    inputs: dict[str, Array] = {}
    raw = [key for key, info in signature.inputs.items()
           if not _is_examples_input(key, info, source.features, parsed)]
    for key, info in signature.inputs.items():
        if key not in raw:
            inputs[key] = serialized_examples(source, parsed)
            continue
        value = _feature(source.features, key, raw)
        if value is None:
            raise ServingError(f"`{signature.key}` input `{key}` ({info.describe()}): no feature of that name in the "
                               f"input's features {_feature_names(source.features)}, and it does not parse "
                               "tf.Examples; cannot build requests.")
        value = np.asarray(value)
        inputs[key] = value if info.dtype == "string" else value.astype(tf.dtypes.as_dtype(info.dtype).as_numpy_dtype)
    return inputs
