"""What a SavedModel shows a model server: its signatures (keys, method names, inputs, outputs) and parses.

Read three ways, as a server and its operators do, and cross-checked: the
SignatureDefs in ``saved_model.pb`` (what TF Serving dispatches on, method
names included), `tf.saved_model.load` (the functions a TF2 server calls) and
`saved_model_cli show --all` (what an operator reads). The features a
signature parses from serialized `tf.Example`s are read from the
``ParseExample`` ops of the graph and its functions: the receiver's feature
spec, whichever API built it.
"""
from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from migrate.parity.pair import PairError

SERVE_TAG = "serve"


class ServingError(PairError):
    """A side cannot be exported, its SavedModel cannot be read, or no request can be built (exit 2)."""


@dataclass(frozen=True)
class TensorInfo:
    """A signature input or output: dtype name ("float32") and shape (None for an unknown dimension or rank)."""

    dtype: str
    shape: tuple[int | None, ...] | None

    def describe(self) -> str:
        if self.shape is None:
            return f"{self.dtype} (unknown rank)"
        dims = ", ".join("None" if dim is None else str(dim) for dim in self.shape)
        return f"{self.dtype} ({dims}{',' if len(self.shape) == 1 else ''})"


@dataclass(frozen=True)
class SignatureInfo:
    key: str
    method_name: str
    inputs: dict[str, TensorInfo]
    outputs: dict[str, TensorInfo]

    @property
    def method(self) -> str:
        """"classify", "regress", "predict" (the last part of the method name)."""
        return self.method_name.rpartition("/")[2]

    def describe(self) -> str:
        def show(tensors: dict[str, TensorInfo]) -> str:
            return ", ".join(f"`{k}` {v.describe()}" for k, v in sorted(tensors.items()))

        return f"{self.method} ({show(self.inputs)} → {show(self.outputs)})"


@dataclass(frozen=True)
class ParsedFeature:
    """One feature a ``ParseExample`` op reads: dense, sparse or ragged, its dtype and (dense) shape."""

    key: str
    kind: str
    dtype: str
    shape: tuple[int, ...] | None = None

    def describe(self) -> str:
        shape = "" if self.shape is None else f" {list(self.shape)}"
        return f"{self.dtype}{shape} ({self.kind})"


@dataclass
class Surface:
    """One side's SavedModel as a server sees it; `functions` are its signatures loaded (key → concrete function)."""

    directory: Path
    signatures: dict[str, SignatureInfo]
    parsed_features: dict[str, ParsedFeature] = field(default_factory=dict)
    saved_model_cli: str = ""
    functions: Any = None


def _dtype_name(enum_value: int) -> str:
    import tensorflow as tf

    name: str = tf.dtypes.as_dtype(enum_value).name
    return name


def _tensor_info(info: Any) -> TensorInfo:
    shape = info.tensor_shape
    dims = None if shape.unknown_rank else tuple(None if dim.size < 0 else int(dim.size) for dim in shape.dim)
    return TensorInfo(_dtype_name(info.dtype), dims)


def serving_meta_graph(directory: Path, side: str) -> Any:
    """The ``saved_model.pb``'s MetaGraph tagged only 'serve' (the one a model server loads); a directory that holds
    no SavedModel, or none with that MetaGraph, is a `ServingError` naming the side."""
    from tensorflow.core.protobuf import saved_model_pb2

    path = Path(directory) / "saved_model.pb"
    if not path.is_file():
        raise ServingError(f"{side} side: {directory} is not a SavedModel (no saved_model.pb in it); "
                           "export it again (or record the legacy side again).")
    try:
        saved_model = saved_model_pb2.SavedModel.FromString(path.read_bytes())
    except Exception as error:  # a truncated or foreign file: protobuf's DecodeError
        raise ServingError(f"{side} side: {path} is not a SavedModel proto ({type(error).__name__}: {error}).") from error
    for meta_graph in saved_model.meta_graphs:
        if list(meta_graph.meta_info_def.tags) == [SERVE_TAG]:
            return meta_graph
    tags = [list(meta_graph.meta_info_def.tags) for meta_graph in saved_model.meta_graphs]
    raise ServingError(f"{side} side: {directory} has no MetaGraph tagged only 'serve' (tag sets: {tags}); "
                       "a model server loads that one.")


def _parse_ops(graph_def: Any) -> list[tuple[Any, dict[str, Any]]]:
    """Every ParseExample op with the constant nodes of its graph or function, by name."""
    scopes = [list(graph_def.node)] + [list(function.node_def) for function in graph_def.library.function]
    found = []
    for nodes in scopes:
        constants = {node.name: node for node in nodes if node.op == "Const"}
        found += [(node, constants) for node in nodes if node.op in ("ParseExample", "ParseExampleV2")]
    return found


def _constant_strings(node: Any, index: int, constants: dict[str, Any]) -> list[str]:
    import tensorflow as tf

    name = node.input[index].split(":")[0].lstrip("^")
    if name not in constants:
        return []
    return [value.decode() if isinstance(value, bytes) else str(value)
            for value in tf.make_ndarray(constants[name].attr["value"].tensor).ravel()]


def parsed_features(graph_def: Any) -> dict[str, ParsedFeature]:
    """The features the graph's ParseExample ops read, by key (the receiver's feature spec)."""
    features: dict[str, ParsedFeature] = {}
    for node, constants in _parse_ops(graph_def):
        if node.op == "ParseExampleV2":  # inputs: serialized, names, sparse_keys, dense_keys, ragged_keys, defaults…
            sparse_keys, dense_keys = _constant_strings(node, 2, constants), _constant_strings(node, 3, constants)
            ragged_keys = _constant_strings(node, 4, constants)
        else:  # ParseExample: serialized, names, sparse_keys…, dense_keys…, defaults…
            count_sparse, count_dense = node.attr["Nsparse"].i, node.attr["Ndense"].i
            sparse_keys = [key for i in range(count_sparse) for key in _constant_strings(node, 2 + i, constants)]
            dense_keys = [key for i in range(count_dense)
                          for key in _constant_strings(node, 2 + count_sparse + i, constants)]
            ragged_keys = []
        dense_shapes = [tuple(int(dim.size) for dim in shape.dim) for shape in node.attr["dense_shapes"].list.shape]
        for key, dtype, shape in zip(dense_keys, node.attr["Tdense"].list.type, dense_shapes):
            features[key] = ParsedFeature(key, "dense", _dtype_name(dtype), shape)
        for key, dtype in zip(sparse_keys, node.attr["sparse_types"].list.type):
            features[key] = ParsedFeature(key, "sparse", _dtype_name(dtype))
        for key, dtype in zip(ragged_keys, node.attr["ragged_value_types"].list.type):
            features[key] = ParsedFeature(key, "ragged", _dtype_name(dtype))
    return features


def saved_model_cli_text(meta_graph: Any) -> str:
    """What `saved_model_cli show --all` prints for the serving MetaGraph's signatures (its own functions)."""
    from tensorflow.python.tools import saved_model_cli

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        print(f"MetaGraphDef with tag-set: '{SERVE_TAG}' contains the following SignatureDefs:")
        for key in sorted(key for key in meta_graph.signature_def if not key.startswith("__")):  # not TF's own
            print(f"\nsignature_def['{key}']:")
            saved_model_cli._show_inputs_outputs_mgd(meta_graph, key, indent=1)
    return buffer.getvalue()


_CLI_TENSOR = re.compile(r"(?P<kind>inputs|outputs)\['(?P<key>.*)'\] tensor_info:\n"
                         r"\s+dtype: (?P<dtype>\S+)\n\s+shape: (?P<shape>.*)")
_CLI_METHOD = re.compile(r"Method name is: (?P<method>.*)")


def _cli_tensor(dtype_text: str, shape_text: str) -> TensorInfo:
    """``DT_FLOAT`` and ``(-1, 3)`` as `saved_model_cli` prints them → float32, (None, 3)."""
    import tensorflow as tf
    from tensorflow.core.framework import types_pb2

    dtype = tf.dtypes.as_dtype(types_pb2.DataType.Value(dtype_text)).name
    if shape_text == "unknown_rank":
        return TensorInfo(dtype, None)
    dims = [part.strip() for part in shape_text.strip("()").split(",") if part.strip()]
    return TensorInfo(dtype, tuple(None if dim == "-1" else int(dim) for dim in dims))


def signatures_from_cli_text(text: str) -> dict[str, SignatureInfo]:
    """Parse `saved_model_cli show` output back into signatures: per ``signature_def['key']:`` block, each tensor's
    dtype and shape (printed on the two lines after its name), then the method name."""
    signatures: dict[str, SignatureInfo] = {}
    for block in text.split("\nsignature_def['")[1:]:
        key, _, listing = block.partition("']:")
        tensors: dict[str, dict[str, TensorInfo]] = {"inputs": {}, "outputs": {}}
        for match in _CLI_TENSOR.finditer(listing):
            tensors[match["kind"]][match["key"]] = _cli_tensor(match["dtype"], match["shape"])
        if method := _CLI_METHOD.search(listing):
            signatures[key] = SignatureInfo(key, method["method"], tensors["inputs"], tensors["outputs"])
    return signatures


def loaded_signatures(directory: Path, side: str) -> Any:
    """The signatures as `tf.saved_model.load` gives them to a TF2 server: key → concrete function."""
    import tensorflow as tf

    try:
        return tf.saved_model.load(str(directory)).signatures
    except Exception as error:
        raise ServingError(f"{side} side: tf.saved_model.load({directory}) failed: {type(error).__name__}: "
                           f"{str(error).strip()[:400]}") from error


def _input_key(keyword: str, spec: Any, keys: Mapping[str, Any]) -> str:
    """The signature input a loaded function's keyword stands for: a key that is no Python name (``curb-weight``)
    becomes the keyword ``curb_weight``, its spec keeping the key as its name — and a call by the key works
    (TF 2.15 and 2.21), so a server sees the proto's inputs."""
    return spec.name if keyword not in keys and getattr(spec, "name", None) in keys else keyword


def cross_check(surface: Surface, side: str) -> None:
    """The proto, `tf.saved_model.load` and `saved_model_cli` must tell the same story; else the SavedModel is broken."""
    from_cli = signatures_from_cli_text(surface.saved_model_cli)
    problems = []
    if set(from_cli) != set(surface.signatures):
        problems.append(f"saved_model_cli lists {sorted(from_cli)}, saved_model.pb {sorted(surface.signatures)}")
    problems += [f"saved_model_cli shows `{key}` as {from_cli[key].describe()}, saved_model.pb as {signature.describe()}"
                 for key, signature in surface.signatures.items() if key in from_cli and from_cli[key] != signature]
    loaded = surface.functions
    if set(loaded.keys()) != set(surface.signatures):
        problems.append(f"tf.saved_model.load gives {sorted(loaded.keys())}, saved_model.pb {sorted(surface.signatures)}")
    for key, signature in surface.signatures.items():
        if key not in loaded:
            continue
        inputs = {_input_key(name, spec, signature.inputs)
                  for name, spec in loaded[key].structured_input_signature[1].items()}
        if inputs != set(signature.inputs):
            problems.append(f"tf.saved_model.load's `{key}` takes {sorted(inputs)}, saved_model.pb says {sorted(signature.inputs)}")
    if problems:
        raise ServingError(f"{side} side: {surface.directory} is inconsistent: " + "; ".join(problems))


def read_surface(directory: Path, side: str) -> Surface:
    """The surface of the SavedModel in `directory`, its signatures loaded, the three readings cross-checked."""
    meta_graph = serving_meta_graph(directory, side)
    signatures = {
        key: SignatureInfo(key, signature.method_name,
                           {name: _tensor_info(info) for name, info in signature.inputs.items()},
                           {name: _tensor_info(info) for name, info in signature.outputs.items()})
        for key, signature in meta_graph.signature_def.items() if not key.startswith("__")
    }
    surface = Surface(Path(directory), signatures, parsed_features(meta_graph.graph_def), saved_model_cli_text(meta_graph),
                      loaded_signatures(directory, side))
    cross_check(surface, side)
    return surface
