"""`scan`: selection, parallel runs equal serial ones, progress only on a terminal."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from migrate.report import scanner

SOURCE = "import tensorflow as tf\nx = tf.placeholder(tf.float32)\ntf.Session().run(x, feed_dict={x: 1})\ntf.logging.info('hi')\n"


@pytest.mark.parametrize(
    ("select", "ignore", "codes"),
    [
        pytest.param((), (), ["TFM301", "TFM302", "TFM303", "TFM503"], id="everything by default"),
        pytest.param(("TFM3",), (), ["TFM301", "TFM302", "TFM303"], id="select by prefix"),
        pytest.param(("TFM301", "TFM503"), (), ["TFM301", "TFM503"], id="select by codes"),
        pytest.param((), ("TFM30",), ["TFM503"], id="ignore by prefix"),
        pytest.param(("TFM3",), ("TFM302",), ["TFM301", "TFM303"], id="ignore wins over select"),
    ],
)
def test_select_and_ignore(select, ignore, codes, write, run_scan) -> None:
    report = run_scan(write("a.py", SOURCE), select=select, ignore=ignore)
    assert sorted(finding.code for finding in report.findings) == codes


def test_parallel_scan_equals_serial_scan(write, run_scan, tmp_path: Path) -> None:
    for index in range(scanner.PARALLEL_THRESHOLD + 8):
        write(f"pkg/m{index:02}.py", SOURCE if index % 3 else "import os\n")
    write("pkg/base.py", "import tensorflow as tf\nclass B(tf.train.SessionRunHook):\n    pass\n")
    write("pkg/leaf.py", "from pkg.base import B\nclass L(B):\n    pass\n")
    write("pkg/contrib.py", "def slim():\n    from tensorflow.contrib import slim\n    return slim\n")
    write("pkg/user.py", "from pkg import contrib\nwith contrib.slim().arg_scope([]):\n    pass\n")
    serial = run_scan(tmp_path, jobs=1)
    parallel = run_scan(tmp_path, jobs=2)
    assert parallel.findings == serial.findings
    assert any(finding.path.endswith("user.py") for finding in parallel.findings), "another file's wrapper (contrib.slim) was resolved"
    assert [hook.full_name for hook in parallel.hooks] == [hook.full_name for hook in serial.hooks] == ["pkg.base.B", "pkg.leaf.L"]


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_written_for_large_trees(write, run_scan, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(scanner, "PROGRESS_THRESHOLD", 3)
    for index in range(4):
        write(f"m{index}.py", "import os\n")
    stream = FakeTerminal()
    run_scan(tmp_path, progress=stream)
    assert "migrate report: 4/4 files" in stream.getvalue()


def test_report_counts_and_effort(write, run_scan) -> None:
    report = run_scan(write("a.py", SOURCE))
    assert report.counts_by_rule() == {"TFM301": 1, "TFM302": 1, "TFM303": 1, "TFM503": 1}
    assert report.effort() == {"redesign": {"TFM303": 1}, "rewrite": {"TFM301": 1, "TFM302": 1}, "rename": {"TFM503": 1}}
    assert report.exit_code == 1
