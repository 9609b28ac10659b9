"""One side's run as one typed record, and its one JSON codec (TensorFlow-free).

Every producer of a side's numbers writes a `SideTrace`: the single-process
parity sides (`migrate.parity.sides`), the `--record` trace file that a later
`--against` run compares with (`migrate.parity.trace`), and each process of a
distributed run (the role programs, through `write_side_trace` /
`read_side_trace`). Every consumer reads the same fields, never a dict by
string keys.

The codec (`encode` / `decode`) is driven by the values written and by the
dataclasses' type hints read, so a field added to a record is written and
read without more code (the `--record` trace file is such a record too; the
parity summary is written by `encode` as well):

- floats are written with Python's shortest round-trip repr, so float32 and
  float64 values come back bit for bit;
- a non-finite float (a NaN loss, an infinite tolerance) is written as the
  object ``{"float": "NaN"}`` (or ``"Infinity"``, ``"-Infinity"``), so the file
  is strict JSON any parser reads; anywhere else such an object is kept as is;
- step-keyed maps (``dict[int, ...]``) are written with string keys and read
  back with int keys;
- numpy arrays are ``{"shape", "dtype", "base64"}`` (the raw bytes), arrays of
  strings or bytes (dtype object) ``{"shape", "dtype": "bytes", "items"}`` with
  each item base64-encoded (a ``str`` item comes back as its UTF-8 bytes, as
  TensorFlow hands strings over);
- a missing field takes its default (a role program fills only what it has);
  an unknown field or a value of the wrong kind is a `SideTraceError` naming
  the field.
"""
from __future__ import annotations

import base64
import dataclasses
import json
import math
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from migrate.core.arrays import Array
from migrate.core.atomic_write import write_text_atomic
from migrate.core.mapping.records import Weight
from migrate.core.protocol import Event

Record = TypeVar("Record")

SPELLINGS = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
"""A non-finite float's `repr` → how the JSON spells it (the spellings `float()` reads back)."""
NONFINITE = {spelling: float(name) for name, spelling in SPELLINGS.items()}


class SideTraceError(ValueError):
    """A side trace that cannot be read back; the message names the field and what was found."""


@dataclass
class FirstBatch:
    """The first training batch as the other side checks it: a hash of its values and each leaf's shape by path."""

    fingerprint: str
    structure: dict[str, list[int]]


@dataclass
class Forward:
    """The PREDICT-mode outputs on the first batch and, per kernel, the input its layer multiplied it with.

    `outputs` holds the predictions by key; a model that returns one array has it under "output" with
    `single` set (`value` gives it back as it came)."""

    outputs: dict[str, Array]
    layer_inputs: dict[str, Array] = field(default_factory=dict)
    single: bool = False

    @classmethod
    def of(cls, outputs: Any, layer_inputs: dict[str, Array] | None = None) -> Forward:
        """From a model's outputs: a dict of arrays, or one array."""
        if isinstance(outputs, dict):
            return cls({key: np.asarray(value) for key, value in outputs.items()}, dict(layer_inputs or {}))
        return cls({"output": np.asarray(outputs)}, dict(layer_inputs or {}), single=True)

    @property
    def value(self) -> Array | dict[str, Array]:
        return self.outputs["output"] if self.single else self.outputs


@dataclass
class Action:
    """A hook or callback that acted (saved a checkpoint, wrote a summary, logged) at a global step."""

    by: str
    step: int


@dataclass
class Evaluation:
    """One evaluation of a checkpoint: its global step, the metrics, the checkpoint's file name."""

    step: int
    metrics: dict[str, float]
    checkpoint: str = ""


@dataclass
class Attempt:
    """One attempt of a distributed run (the launcher's record of a side's cluster, in the verdict's details): how
    it ended and, after a fault, what was killed and what was lost.

    A whole-cluster restart fills `resumes_from_checkpoint`; a task restarted alone (`restarted_alone`) fills
    `first_step_after_kill` (the chief's) and `steps_by_process`."""

    attempt: int
    status: str
    seconds: float = 0.0
    pids: dict[str, int] = field(default_factory=dict)
    killed: str | None = None
    killed_at_step: int | None = None
    cluster_step: int | None = None
    first_step_after_kill: int | None = None
    resumes_from_checkpoint: int | None = None
    steps_lost: int | None = None
    restarted_alone: bool = False
    steps_by_process: dict[str, int] = field(default_factory=dict)


@dataclass
class Role:
    """The process of a distributed run that wrote the trace: its task, the pair file it trained, engine, timing."""

    role: str
    task: str
    pair: str = ""
    engine: str = ""
    replication: str = ""
    pid: int | None = None
    workers: int = 1
    loss_kind: str = ""
    start_step: int = 0
    final_step: int = 0
    restored_by: str | None = None
    scheduled_steps: int | None = None
    extra_updates: int | None = None
    seconds: float = 0.0
    startup_seconds: float = 0.0
    eval_batches_full: bool | None = None
    """An evaluator's: every batch of its eval input was full (a mean of batch means is then a mean over examples)."""


@dataclass
class SideTrace:
    """What one side of a parity run produced.

    side               "legacy" (the TF1 model_fn) or "modern" (the Keras model)
    versions           library versions the side ran with (python, tensorflow, keras, ...)
    losses             the training loss of each step, by step (1 is the first)
    steps_run          steps that ran (fewer than asked when the input ran out, a hook stopped or a loss was NaN)
    nan_at             the step whose loss stopped the run as NaN (NanTensorHook), else None
    train_events       the protocol events of the training run
    events             the protocol events of each event scenario, by scenario name
    actions            which hook/callback acted at which step (a role program's record)
    metrics            the final evaluation's metrics
    evaluations        each evaluation along the run (an evaluator's record)
    first_update_step  the first step that changed a trainable variable (None: none did)
    after_first_step   every tracked variable's value after that step, by name (the side's own layout)
    forward            the PREDICT-mode outputs on the first batch (None: the model gives none)
    variables, state   the TF1 trainable variables and state (batch-norm moving statistics) the mapping reads
    constant_init      each initial value that is one constant (None: not constant), by variable name
    first_batch        the first training batch's fingerprint and structure
    optimizers         every optimizer class the side trains with, in build order
    unseeded           variables whose initial values two seeded draws disagree on
    role               the process of a distributed run that wrote the trace (None for a single process)
    files              files the run wrote and kept, by purpose (e.g. "saved_model": its directory)
    """

    side: str
    versions: dict[str, str] = field(default_factory=dict)
    losses: dict[int, float] = field(default_factory=dict)
    steps_run: int = 0
    nan_at: int | None = None
    train_events: list[Event] = field(default_factory=list)
    events: dict[str, list[Event]] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    metrics: dict[str, float] = field(default_factory=dict)
    evaluations: list[Evaluation] = field(default_factory=list)
    first_update_step: int | None = None
    after_first_step: dict[str, Array] = field(default_factory=dict)
    forward: Forward | None = None
    variables: list[Weight] = field(default_factory=list)
    state: list[Weight] = field(default_factory=list)
    constant_init: dict[str, float | None] = field(default_factory=dict)
    first_batch: FirstBatch | None = None
    optimizers: list[str] = field(default_factory=list)
    unseeded: list[str] = field(default_factory=list)
    role: Role | None = None
    files: dict[str, str] = field(default_factory=dict)


# arrays ---------------------------------------------------------------------------------------------------------
def encode_array(array: Array) -> dict[str, Any]:
    """An array as JSON: its raw bytes base64-encoded; an array of strings (dtype object) item by item."""
    array = np.asarray(array)
    if array.dtype == object:  # strings, e.g. a canned head's "classes": each item's bytes, not the pointers
        items = [item.encode("utf-8") if isinstance(item, str) else bytes(item) for item in array.ravel()]
        return {"shape": list(array.shape), "dtype": "bytes",
                "items": [base64.b64encode(item).decode("ascii") for item in items]}
    return {"shape": list(array.shape), "dtype": str(array.dtype),
            "base64": base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii")}


def decode_array(item: Any) -> Array:
    if not isinstance(item, dict) or "shape" not in item or "dtype" not in item:
        raise SideTraceError(f"an array is written as {{\"shape\", \"dtype\", \"base64\"}}, found {_show(item)}")
    if item["dtype"] == "bytes":
        values = np.empty(len(item["items"]), dtype=object)
        values[:] = [base64.b64decode(value) for value in item["items"]]
        return values.reshape(item["shape"])
    return np.frombuffer(base64.b64decode(item["base64"]), dtype=item["dtype"]).reshape(item["shape"]).copy()


# the codec --------------------------------------------------------------------------------------------------------
def encode(value: Any) -> Any:
    """A record (an instance of a dataclass typed with the kinds above), or any value, as a JSON value: strict JSON,
    `json.dumps(..., allow_nan=False)` accepts it. Records go field by field, arrays by `encode_array`, maps get string
    keys, a non-finite float becomes ``{"float": "NaN"}``; the parity summary is written by it too."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {item.name: encode(getattr(value, item.name)) for item in dataclasses.fields(value)}
    if isinstance(value, np.ndarray):
        return encode_array(value)
    if isinstance(value, Mapping):
        return {str(key): encode(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(item) for item in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else {"float": SPELLINGS[repr(float(value))]}
    return int(value) if isinstance(value, np.integer) else value


def from_json_value(value: Any) -> Any:
    """A free-form JSON value (an event, a config) as `encode` wrote it: ``{"float": "NaN"}`` objects become floats
    again."""
    if isinstance(value, dict):
        if len(value) == 1 and value.get("float") in NONFINITE:
            return NONFINITE[value["float"]]
        return {key: from_json_value(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_json_value(item) for item in value]
    return value


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _optional(hint: Any) -> Any | None:
    """`X` for a hint `X | None`, else None."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        arms = [arm for arm in typing.get_args(hint) if arm is not type(None)]
        if len(arms) == 1:
            return arms[0]
    return None


def _decode(value: Any, hint: Any, where: str) -> Any:
    inner = _optional(hint)
    if value is None and (inner is not None or hint is Any):
        return None
    if inner is not None:
        return _decode(value, inner, where)
    if hint is np.ndarray or typing.get_origin(hint) is np.ndarray:
        try:
            return decode_array(value)
        except (SideTraceError, KeyError, TypeError, ValueError) as error:
            raise SideTraceError(f"{where}: not an array ({error})") from error
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _decode_record(value, hint, where)
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin is dict:
        _expect(value, dict, where)
        return {_decode_key(key, arguments[0], where): _decode(item, arguments[1], f"{where}.{key}")
                for key, item in value.items()}
    if origin in (list, tuple):
        _expect(value, list, where)
        decoded = [_decode(item, arguments[0], f"{where}[{index}]") for index, item in enumerate(value)]
        return tuple(decoded) if origin is tuple else decoded
    if hint is float:
        value = from_json_value(value)
        _expect(value, (int, float), where)
        return float(value)
    if hint in (int, str, bool):
        _expect(value, hint, where)
        return value
    return from_json_value(value)


def _decode_key(key: str, key_type: Any, where: str) -> Any:
    if key_type is not int:
        return key
    try:
        return int(key)
    except ValueError as error:
        raise SideTraceError(f"{where}: the key {key!r} is not a step number") from error


def _expect(value: Any, kinds: type | tuple[type, ...], where: str) -> None:
    if not isinstance(value, kinds) or (isinstance(value, bool) and kinds in (int, (int, float))):
        names = " or ".join(kind.__name__ for kind in (kinds if isinstance(kinds, tuple) else (kinds,)))
        raise SideTraceError(f"{where}: expected {names}, found {_show(value)}")


def _decode_record(value: Any, cls: Any, where: str) -> Any:
    _expect(value, dict, where)
    names = {item.name for item in dataclasses.fields(cls)}
    unknown = sorted(set(value) - names)
    if unknown:
        raise SideTraceError(f"{where}: unknown field(s) {', '.join(unknown)} (fields of {cls.__name__}: "
                             f"{', '.join(sorted(names))})")
    hints = _hints(cls)
    try:
        return cls(**{name: _decode(item, hints[name], f"{where}.{name}") for name, item in value.items()})
    except TypeError as error:  # a required field missing
        raise SideTraceError(f"{where}: {error}") from error


def decode(encoded: Any, cls: type[Record], where: str) -> Record:
    """`encode` undone, as a `cls` (the record's type hints say what each field holds); `where` names the record in
    a `SideTraceError`."""
    record: Record = _decode_record(encoded, cls, where)
    return record


# the role programs' write/read API ---------------------------------------------------------------------------
def write_side_trace(path: str | Path, trace: Any) -> Path:
    """Write `trace` (a `SideTrace`, or another record: the `--record` trace file's) to `path` as strict JSON, whole
    or not at all (a reader never sees half a trace)."""
    return write_text_atomic(path, json.dumps(encode(trace), allow_nan=False, indent=1))


def read_side_trace(path: str | Path) -> SideTrace:
    """The trace `write_side_trace` wrote to `path`; a `SideTraceError` when it is missing, cut short or malformed."""
    return decode(read_json(path, "the side trace"), SideTrace, str(path))


def read_json(path: str | Path, what: str, damaged: str = "") -> Any:
    """The JSON value the file `path` holds; a `SideTraceError` naming `what` ("the side trace") when the file cannot
    be read, or is not UTF-8 JSON (then followed by `damaged`, what to do about it)."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise SideTraceError(f"cannot read {what} {path}: {error.strerror or error}") from error
    except ValueError as error:  # json.JSONDecodeError, UnicodeDecodeError
        raise SideTraceError(f"{what} {path} is not valid JSON ({error}){damaged}") from error
