"""`SideTrace` and its JSON codec: every field round-trips, floats bit for bit, strict JSON out."""
from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest

from migrate.core.mapping import Weight
from migrate.core.protocol import make_event
from migrate.core.side_trace import (
    Action,
    Attempt,
    Evaluation,
    FirstBatch,
    Forward,
    Role,
    SideTrace,
    SideTraceError,
    decode,
    decode_array,
    encode,
    encode_array,
    read_side_trace,
    write_side_trace,
)

THIRD = float(np.float32(1 / 3))


def full_trace() -> SideTrace:
    """A trace with every field set to something other than its default."""
    return SideTrace(
        side="legacy",
        versions={"python": "3.11.9", "tensorflow": "2.15.1"},
        losses={1: float(np.float32(2.302585)), 2: THIRD, 10: math.nan, 11: math.inf, 12: -math.inf},
        steps_run=12,
        nan_at=10,
        train_events=[make_event("train", "begin"), make_event("train", "after_run", 1, math.nan)],
        events={"stop_at_step": [make_event("train", "request_stop", 3)]},
        actions=[Action("CheckpointSaverHook", 0), Action("SummarySaverHook", 5)],
        metrics={"accuracy": 0.875, "loss": THIRD, "auc": math.nan},
        evaluations=[Evaluation(4, {"accuracy": 0.5, "loss": math.inf}, "model.ckpt-4")],
        first_update_step=2,
        after_first_step={"dense/kernel": np.arange(6, dtype=np.float32).reshape(2, 3) / 7,
                          "dense/bias": np.array([np.nan, np.inf, 1e-45], dtype=np.float64)},
        forward=Forward.of({"probabilities": np.full((2, 2), 0.5, np.float16), "classes": np.array([3, 1], np.int64),
                            "names": np.array(["cat", b"dog"], dtype=object)},
                           {"dense/kernel": np.ones((2, 784), np.uint8)}),
        variables=[Weight("dense/kernel", (784, 10), "float64", "Dense", 1)],
        state=[Weight("bn/moving_mean", (10,), "float16", "BatchNormalization", 2)],
        constant_init={"dense/kernel": None, "dense/bias": 0.0},
        first_batch=FirstBatch("0123456789abcdef", {"features/x": [2, 784], "labels": [2]}),
        optimizers=["GradientDescentOptimizer", "AdamOptimizer"],
        unseeded=["dense/kernel"],
        role=Role("chief", "chief:0", pair="examples/ctr_tabular/pair.py", engine="SyncReplicasOptimizer", replication="sync", pid=123, workers=2,
                  loss_kind="the chief's", start_step=3, final_step=12, restored_by="checkpoint", scheduled_steps=12,
                  extra_updates=1, seconds=1.5, startup_seconds=0.25, eval_batches_full=False),
        files={"saved_model": "/tmp/serving/legacy"},
    )


def assert_same(left, right) -> None:
    """Equal field by field; arrays by dtype, shape and bits; NaN equal to NaN."""
    if dataclasses.is_dataclass(left):
        assert type(left) is type(right)
        for item in dataclasses.fields(left):
            assert_same(getattr(left, item.name), getattr(right, item.name))
    elif isinstance(left, np.ndarray):
        assert isinstance(right, np.ndarray) and left.dtype == right.dtype and left.shape == right.shape
        if left.dtype == object:
            expected = [item.encode() if isinstance(item, str) else item for item in left.ravel()]
            assert list(right.ravel()) == expected
        else:
            assert left.tobytes() == right.tobytes()
    elif isinstance(left, dict):
        assert list(left) == list(right)
        for key in left:
            assert type(key) is type(next(k for k in right if k == key))
            assert_same(left[key], right[key])
    elif isinstance(left, (list, tuple)):
        assert type(left) is type(right) and len(left) == len(right)
        for a, b in zip(left, right):
            assert_same(a, b)
    elif isinstance(left, float) and math.isnan(left):
        assert isinstance(right, float) and math.isnan(right)
    else:
        assert type(left) is type(right) and left == right


def defaults_left(record, path: str = "") -> list[str]:
    """The fields of `record` and the records inside it still at their defaults (a field the test would not see)."""
    left = []
    for item in dataclasses.fields(record):
        value, where = getattr(record, item.name), f"{path or type(record).__name__}.{item.name}"
        default = item.default_factory() if item.default_factory is not dataclasses.MISSING else item.default
        if item.default is not dataclasses.MISSING or item.default_factory is not dataclasses.MISSING:
            if type(value) is type(default) and not isinstance(value, dict) and value == default or (
                    isinstance(value, dict) and not value):
                left.append(where)
        for inner in value if isinstance(value, list) else [value]:
            if dataclasses.is_dataclass(inner):
                left += defaults_left(inner, where)
    return left


def test_every_field_round_trips_through_strict_json():
    trace = full_trace()
    assert defaults_left(trace) == ["SideTrace.forward.single"], "the test covers every field of every record"
    text = json.dumps(encode(trace), allow_nan=False)  # strict: NaN/inf are objects, not bare tokens
    back = decode(json.loads(text), SideTrace, "side trace")
    assert_same(trace, back)
    assert list(back.losses) == [1, 2, 10, 11, 12] and all(type(step) is int for step in back.losses)
    assert back.forward is not None and back.forward.value["classes"].tolist() == [3, 1]


def test_an_attempt_round_trips_as_the_distributed_summary_holds_it():
    attempt = Attempt(0, "done", 2.5, {"worker:1": 7}, killed="worker:1", killed_at_step=4, cluster_step=5,
                      first_step_after_kill=6, steps_lost=0, restarted_alone=True, steps_by_process={"worker:0": 5})
    assert defaults_left(attempt) == ["Attempt.resumes_from_checkpoint"]  # a restart alone resumes from none
    back = decode(json.loads(json.dumps(encode(attempt), allow_nan=False)), Attempt, "attempt")
    assert_same(attempt, back)


def test_non_finite_floats_are_written_as_objects():
    encoded = encode(SideTrace("modern", losses={1: math.nan, 2: math.inf, 3: -math.inf, 4: 0.5}))
    assert encoded["losses"] == {"1": {"float": "NaN"}, "2": {"float": "Infinity"}, "3": {"float": "-Infinity"},
                                 "4": 0.5}


def test_float32_values_come_back_bit_for_bit():
    values = np.random.default_rng(0).standard_normal(200).astype(np.float32)
    trace = SideTrace("modern", losses={step: float(value) for step, value in enumerate(values, 1)})
    back = decode(json.loads(json.dumps(encode(trace), allow_nan=False)), SideTrace, "side trace")
    assert np.array_equal(np.array(list(back.losses.values()), np.float32), values)


def test_a_single_array_output_comes_back_as_an_array():
    output = np.arange(4, dtype=np.float32).reshape(2, 2)
    back = decode(encode(SideTrace("legacy", forward=Forward.of(output))), SideTrace, "side trace")
    assert back.forward is not None and isinstance(back.forward.value, np.ndarray)
    assert np.array_equal(back.forward.value, output)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "int64", "uint8", "bool", "complex64"])
def test_arrays_keep_dtype_shape_and_bits(dtype):
    array = (np.arange(12).reshape(3, 4) - 5).astype(dtype)
    back = decode_array(json.loads(json.dumps(encode_array(array))))
    assert back.dtype == array.dtype and back.shape == array.shape and back.tobytes() == array.tobytes()


def test_missing_fields_take_their_defaults():
    assert decode({"side": "modern", "losses": {"3": 1.5}}, SideTrace, "side trace") == SideTrace("modern", losses={3: 1.5})


@pytest.mark.parametrize(
    ("encoded", "message"),
    [
        pytest.param({"side": "legacy", "loss": {}}, r"unknown field\(s\) loss", id="a misspelt field"),
        pytest.param({"losses": {}}, r"missing 1 required positional argument: 'side'", id="a required field missing"),
        pytest.param({"side": "legacy", "losses": {"first": 1.0}}, r"side trace.losses: the key 'first' is not a step",
                     id="a step key that is not a number"),
        pytest.param({"side": "legacy", "steps_run": "3"}, r"side trace.steps_run: expected int, found '3'",
                     id="a number as a string"),
        pytest.param({"side": "legacy", "after_first_step": {"w": [1, 2]}}, r"after_first_step.w: not an array",
                     id="an array as a list"),
        pytest.param([], r"side trace: expected dict, found \[\]", id="not an object"),
    ],
)
def test_malformed_traces_name_the_field(encoded, message):
    with pytest.raises(SideTraceError, match=message):
        decode(encoded, SideTrace, "side trace")


def test_write_and_read(tmp_path):
    path = write_side_trace(tmp_path / "worker0.json", full_trace())
    assert not list(tmp_path.glob("*.partial*"))
    assert_same(full_trace(), read_side_trace(path))


def test_read_errors_say_what_is_wrong(tmp_path):
    with pytest.raises(SideTraceError, match="cannot read the side trace"):
        read_side_trace(tmp_path / "absent.json")
    (tmp_path / "cut.json").write_text('{"side": "leg')
    with pytest.raises(SideTraceError, match="not valid JSON"):
        read_side_trace(tmp_path / "cut.json")
