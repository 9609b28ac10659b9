"""`bench.distributed` without clusters: the rate from a chief's timeline and the table's rows per replication."""
from __future__ import annotations

import pytest

from bench.distributed import ENGINES, markdown, rate_between


def test_the_rate_starts_at_the_first_step_the_chief_saw_after_the_warmup():
    # an asynchronous TF1 chief sees every other global step: 9 and 11, not 10
    timeline = [(1, 0.0), (3, 0.5), (9, 1.0), (11, 2.0), (21, 4.0)]
    assert rate_between(timeline, warmup=10) == pytest.approx((21 - 11) / (4.0 - 2.0))


def test_the_table_has_one_row_per_engine_and_worker_count_with_the_ratio_to_one_worker():
    def entry(rate, examples):
        spread = {"median": rate, "min": rate, "max": rate}
        return {"steps_per_s": spread, "examples_per_s": {"median": rate * examples}, "startup_s": {"median": 1.0},
                "versions": {"tensorflow": "2.15.1"}, "examples_per_step": examples}

    summary = {}
    for side, replication in ENGINES:
        summary[f"{side}/{replication}/1"] = entry(10.0, 64)
        summary[f"{side}/{replication}/2"] = entry(15.0, 64 if replication == "async" else 128)
    payload = {"rounds": 1, "steps": 20, "warmup": 5, "machine": {"cpus": 2},
               "load_average": {"before": [1.0], "after": [1.0]}, "when": "now"}
    table = markdown(summary, payload)
    rows = [line for line in table.splitlines() if line.startswith("| legacy") or line.startswith("| modern")]
    assert len(rows) == 2 * len(ENGINES)
    assert sum("| async | 2 | 64 | 15.00" in row and "| 1.50 |" in row for row in rows) == 2
