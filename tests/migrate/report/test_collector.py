"""The report runs with the cyclic garbage collector paused, which is only sound while a scan makes no cycles."""
from __future__ import annotations

import gc
from pathlib import Path

from migrate.report.collector import paused
from migrate.report.scanner import ScanOptions, scan

SAMPLE = Path(__file__).parent / "sample"


def test_paused_restores_the_collector_as_it_was() -> None:
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_scan_leaves_no_garbage_cycles_for_a_paused_collector() -> None:
    """Every file of the labelled sample (real TF1 excerpts, notebooks, hooks, broken files) is scanned
    in this process with the collector paused; a full collection afterwards finds nothing to free.
    A first scan runs before, so that one-time work (imports, caches) is not counted: a cycle made
    per file would show in the second scan as well."""
    scan([str(SAMPLE)], ScanOptions(jobs=1))
    gc.collect()
    with paused():
        report = scan([str(SAMPLE)], ScanOptions(jobs=1))
        assert report.findings and report.hooks
        del report
        unreachable = gc.collect()
    assert unreachable == 0
