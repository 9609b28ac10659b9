"""The interleaved four-way benchmark's bookkeeping (no training here: the workers are other interpreters)."""
from __future__ import annotations

import pytest

from bench import interleaved


def test_ratios_are_per_round_against_the_estimator_with_the_same_onednn_setting():
    rates = {
        "legacy_estimator, oneDNN on": [20.0, 10.0, 30.0],
        "keras_3, oneDNN on": [19.0, 10.0, 36.0],
        "legacy_estimator, oneDNN off": [8.0, 8.0, 8.0],
        "keras_3, oneDNN off": [4.0, 6.0, 8.0],
    }
    summary = interleaved.summarize(rates, ["on", "off"])
    on = summary["variants"]["keras_3, oneDNN on"]["ratio_to_legacy_estimator"]
    assert on["median"] == pytest.approx(1.0) and on["min"] == pytest.approx(0.95) and on["max"] == pytest.approx(1.2)
    assert summary["variants"]["keras_3, oneDNN off"]["ratio_to_legacy_estimator"]["median"] == pytest.approx(0.75)
    assert summary["variants"]["legacy_estimator, oneDNN on"]["ratio_to_legacy_estimator"] is None
    assert summary["targets_met"] == {
        "keras_3, oneDNN on >= 0.95x legacy_estimator, oneDNN on": True,
        "keras_3, oneDNN off >= 0.95x legacy_estimator, oneDNN off": False,
    }


def test_cpu_medians_are_per_variant_over_rounds():
    runs = {"keras_3, oneDNN on": [
        {"rate": 50.0, "loop_thread_ms": 1.0, "process_ms": 30.0},
        {"rate": 40.0, "loop_thread_ms": 3.0, "process_ms": 20.0},
        {"rate": 45.0, "loop_thread_ms": 2.0, "process_ms": 40.0},
    ]}
    assert interleaved.cpu_medians(runs) == {"keras_3, oneDNN on": {"loop_thread_ms": 2.0, "process_ms": 30.0}}


def test_every_worker_runs_in_an_existing_environment_kind():
    assert set(interleaved.FOUR_WAY) < set(interleaved.WORKERS)
    assert {worker.venv for worker in interleaved.WORKERS.values()} == {".venv", ".venv-tf221"}
    assert {worker.runner for worker in interleaved.WORKERS.values()} == set(interleaved.RUNNERS)
    assert dict(interleaved.WORKERS["tf_keras"].env) == {"TF_USE_LEGACY_KERAS": "1"}


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        pytest.param([], {}, id="no options: the model as build_model compiles it"),
        pytest.param(["--steps-per-execution", "10"], {"steps_per_execution": 10}, id="steps per execution"),
        pytest.param(["--jit-compile"], {"jit_compile": True}, id="XLA"),
    ],
)
def test_each_keras_3_setting_reaches_compile(options, expected):
    args = interleaved.parse_args(["--serve", "modern", *options])
    assert interleaved.compile_options(args) == expected


def test_steps_not_a_multiple_of_steps_per_execution_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        interleaved.main(["--workers", "keras_3_spe10", "--warmup", "15"])
    assert exit_info.value.code == 2
    assert "--warmup (15) and --steps (150) must be multiples of 10" in capsys.readouterr().err


def test_a_missing_environment_is_a_clear_error(tmp_path):
    with pytest.raises(SystemExit, match="is missing; run `python3 dev.py test`"):
        interleaved.main(["--venv-root", str(tmp_path), "--quick"])


def _payload(round_loads: list[float]) -> dict:
    return {
        "load_average": {"before": [1.0], "after": [1.0], "rounds": round_loads},
        "machine": {"cpus": 2},
        "cpu_ms_per_step": {"keras_3, oneDNN on": {"process_ms": 28.0},
                            "legacy_estimator, oneDNN on": {"process_ms": 26.6}},
    }


@pytest.mark.parametrize(
    ("round_loads", "expected"),
    [
        pytest.param([1.2, 2.9], "**met**", id="only the benchmark itself on 2 CPUs: the steps/s verdict"),
        pytest.param([1.2, 9.5], "**not judged** — the load average reached 9.5 on 2 CPUs", id="busy machine"),
    ],
)
def test_a_target_is_judged_on_steps_per_second_only_on_a_quiet_machine(round_loads, expected):
    name = "keras_3, oneDNN on >= 0.95x legacy_estimator, oneDNN on"
    line = interleaved.target_verdict(name, True, _payload(round_loads))
    assert expected in line
    if "not judged" in expected:
        assert "CPU ms per step it is 0.95x (26.6 / 28.0)" in line
