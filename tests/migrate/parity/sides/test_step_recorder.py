"""`StepRecorder`: the one record both sides' training keeps, driven here as a hook or callback would drive it."""
from __future__ import annotations

import numpy as np

from migrate.core.protocol import expected_events, without_losses
from migrate.core.side_trace import SideTrace
from migrate.parity.sides.step_recorder import StepRecorder


def drive(recorder: StepRecorder, weights: list[dict[str, np.ndarray]], losses: list[float], *, start: int = 0,
          stop_at: int | None = None) -> list[int]:
    """Run the protocol over `losses` (weights[i] are the values after step i, weights[0] the start); the steps at
    which the recorder read the variables."""
    reads: list[int] = []
    recorder.begin()
    recorder.session_created(start, weights[0], ["w"])
    for index, loss in enumerate(losses, 1):
        recorder.before_run()

        def read(index: int = index) -> dict[str, np.ndarray]:
            reads.append(index)
            return weights[index]

        recorder.after_run(loss, read, stop_requested=index == stop_at)
        if index == stop_at:
            break
    recorder.end()
    return reads


def values(w: float, statistic: float) -> dict[str, np.ndarray]:
    return {"w": np.array([w], np.float32), "moving_mean": np.array([statistic], np.float32)}


def test_the_first_update_of_a_trainable_variable_is_recorded_and_reading_stops_there():
    messages: list[str] = []
    # step 1 moves only the batch-norm statistic (learning-rate warm-up): not an update
    weights = [values(1, 0), values(1, 0.5), values(0.75, 0.6), values(0.5, 0.7)]
    recorder = StepRecorder("legacy", messages.append, total=3)
    reads = drive(recorder, weights, [2.5, 2.25, 2.0])
    trace = SideTrace("legacy")
    snapshots = recorder.fill(trace)
    assert trace.first_update_step == 2 and trace.after_first_step is weights[2]
    assert reads == [1, 2], "no variable is read after the first update (without capture or digest)"
    assert trace.losses == {1: 2.5, 2: 2.25, 3: 2.0} and trace.steps_run == 3 and trace.nan_at is None
    assert without_losses(trace.train_events) == expected_events("train", 3)
    assert snapshots.captured == {} and snapshots.digests == {}
    assert messages == ["  legacy step 1/3  loss 2.500000", "  legacy step 2/3  loss 2.250000",
                        "  legacy step 3/3  loss 2.000000"]


def test_capture_digest_and_a_stop_request_on_a_resumed_run():
    weights = [values(1.0 - step / 8, 0) for step in range(5)]
    recorder = StepRecorder("modern", lambda message: None, total=4, capture=(0, 2),
                            digest=lambda vs: {name: str(float(v[0])) for name, v in vs.items()})
    drive(recorder, weights, [1.0, 0.5, 0.25, 0.125], start=10, stop_at=3)
    trace = SideTrace("modern")
    snapshots = recorder.fill(trace, nan_at=None)
    assert list(trace.losses) == [11, 12, 13], "losses are keyed by global step"
    assert set(snapshots.captured) == {0, 2} and snapshots.captured[2] is weights[2], "captures count from the start"
    assert snapshots.digests == {run: {"w": str(1.0 - run / 8), "moving_mean": "0.0"} for run in (1, 2, 3)}
    assert without_losses(trace.train_events) == expected_events("train", 3, start_step=10, stop_requested=True)
    assert trace.first_update_step == 1


def test_fill_puts_the_training_fields_into_the_held_trace_in_place():
    held = SideTrace("legacy", versions={"tensorflow": "2.15.1"}, optimizers=["GradientDescentOptimizer"])
    recorder = StepRecorder("legacy", lambda message: None, total=2)
    drive(recorder, [values(1, 0), values(0.5, 0), values(0.25, 0)], [0.5, float("nan")])
    recorder.fill(held, nan_at=2)
    assert held.versions == {"tensorflow": "2.15.1"} and held.optimizers == ["GradientDescentOptimizer"]
    assert held.losses.keys() == {1, 2} and held.steps_run == 2 and held.nan_at == 2
    assert held.train_events is recorder.events and held.first_update_step == 1 and held.after_first_step["w"] == 0.5
