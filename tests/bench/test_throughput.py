"""Smoke tests: the throughput benchmark runs at tiny size and writes well-formed results (no timing checks)."""
from __future__ import annotations

import json

import pytest

from bench import throughput
from bench.common import Spread

TINY = ["--rounds", "2", "--warmup", "2", "--steps", "3", "--examples", "512"]
MODERN_VARIANTS = ["modern_generator", "modern_tensor_slices", "per_example_generator", "floor_fit", "floor_loop"]


def _results(tmp_path, name="throughput"):
    payload = json.loads((tmp_path / f"{name}.json").read_text())
    return payload, (tmp_path / f"{name}.md").read_text()


def test_modern_variants_and_the_floors_write_both_result_files(tmp_path):
    argv = [*TINY, "--variants", *MODERN_VARIANTS, "--results-dir", str(tmp_path), "--name", "tiny"]
    assert throughput.main(argv) == 0
    payload, markdown = _results(tmp_path, "tiny")
    assert payload["config"]["variants"] == MODERN_VARIANTS
    assert payload["config"]["examples"] == 512
    for name in MODERN_VARIANTS:
        entry = payload["summary"]["variants"][name]
        assert len(entry["rounds"]) == 2 and all(rate > 0 for rate in entry["rounds"])
        assert set(entry["steps_per_s"]) == {"median", "min", "max", "q1", "q3", "count"}
        assert f"`{name}`" in markdown
    assert "modern_generator/floor_loop" in payload["summary"]["ratios"]
    assert list(payload["summary"]["targets_met"]) == ["modern_generator >= 0.95x floor_loop"]
    assert len(payload["load_average"]["before"]) == 3
    assert payload["machine"]["versions"]["tensorflow"]


@pytest.mark.estimator
def test_legacy_estimator_is_measured_and_compared(tmp_path):
    argv = [*TINY, "--variants", "legacy_estimator", "modern_generator", "floor_loop", "--results-dir", str(tmp_path)]
    assert throughput.main(argv) == 0
    payload, markdown = _results(tmp_path)
    ratios = payload["summary"]["ratios"]
    assert {"modern_generator/legacy_estimator", "modern_generator/floor_loop", "legacy_estimator/floor_loop"} <= set(ratios)
    assert set(payload["summary"]["targets_met"]) == {
        "modern_generator >= 1.0x legacy_estimator", "modern_generator >= 0.95x floor_loop",
    }
    assert "target modern_generator >= 1.0x legacy_estimator" in markdown


def test_quick_writes_nothing(tmp_path):
    argv = ["--quick", "--variants", "floor_loop", "--examples", "256", "--results-dir", str(tmp_path)]
    assert throughput.main(argv) == 0
    assert list(tmp_path.iterdir()) == []


def test_the_clock_excludes_the_warm_up_steps():
    clock = throughput.StepClock([0.0, 5.0, 6.0, 7.5])
    assert clock.window(warmup=1, steps=3) == 7.5 - 0.0
    assert clock.window(warmup=2, steps=2) == 7.5 - 5.0
    with pytest.raises(RuntimeError):
        clock.window(warmup=2, steps=3)
    with pytest.raises(ValueError):
        clock.window(warmup=0, steps=1)


def test_the_clock_counts_the_steps_each_tick_covers():
    clock = throughput.StepClock([1.0, 2.0, 4.0, 7.0], ends=[10, 20, 30, 40])
    assert clock.window(warmup=10, steps=30) == 7.0 - 1.0
    with pytest.raises(RuntimeError, match="multiples of N"):
        clock.window(warmup=5, steps=30)


def test_cpu_per_step_is_taken_over_the_measured_window():
    clock = throughput.StepClock([0.0, 1.0, 2.0], ends=[1, 2, 3], cpu=[(0.5, 1.0), (0.501, 1.030), (0.503, 1.070)])
    cpu = clock.cpu_per_step(warmup=1, steps=2)
    assert cpu["loop_thread_ms"] == pytest.approx(1.5) and cpu["process_ms"] == pytest.approx(35.0)


def test_a_tick_records_both_cpu_clocks():
    clock = throughput.StepClock()
    clock.tick()
    sum(range(200_000))
    clock.tick()
    (loop_0, process_0), (loop_1, process_1) = clock.cpu
    assert 0 < loop_1 - loop_0 <= process_1 - process_0 + 1e-3


def test_ratios_are_paired_by_round():
    rates = {"a": [10.0, 20.0, 30.0], "b": [10.0, 10.0, 10.0]}
    spread = throughput.paired_ratios(rates, "a", "b")
    assert (spread.median, spread.minimum, spread.maximum) == (2.0, 1.0, 3.0)
    assert throughput.paired_ratios(rates, "a", "missing") is None
    assert Spread.of([4.0]).q1 == Spread.of([4.0]).q3 == 4.0
