"""The roles' progress file: one flushed JSON line per record, and the hold the launcher's fault injection asks for."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from migrate.core.progress_file import HOLD_ENV, ProgressFile


def test_each_record_is_one_line_readable_before_the_file_is_closed(tmp_path):
    path = tmp_path / "progress.jsonl"
    progress = ProgressFile(path, environ={})
    progress.write({"step": 1, "loss": 0.5, "time": 1.0})
    progress.write({"step": 2, "loss": 0.25, "time": 2.0, "pid": 7})
    assert [json.loads(line) for line in path.read_text().splitlines()] == [
        {"step": 1, "loss": 0.5, "time": 1.0}, {"step": 2, "loss": 0.25, "time": 2.0, "pid": 7}]


def test_a_restarted_role_appends_to_what_the_killed_one_wrote(tmp_path):
    path = tmp_path / "progress.jsonl"
    path.write_text('{"step": 4, "loss": 1.0}\n')
    ProgressFile(path, environ={}).write({"step": 5, "loss": 0.5})
    assert [json.loads(line)["step"] for line in path.read_text().splitlines()] == [4, 5]


def test_without_a_path_nothing_is_written_and_nothing_holds(tmp_path):
    progress = ProgressFile(None, environ={})
    progress.write({"step": 1, "loss": 0.5})
    assert progress.hold_at_step is None and list(tmp_path.iterdir()) == []


def test_a_hold_that_is_not_a_step_is_named(tmp_path):
    with pytest.raises(ValueError, match=f"{HOLD_ENV}='six' is not a step number"):
        ProgressFile(tmp_path / "progress.jsonl", environ={HOLD_ENV: "six"})


def test_the_role_holds_after_writing_the_step_it_was_told_until_it_is_killed(tmp_path):
    path = tmp_path / "progress.jsonl"
    script = ("import sys\nfrom migrate.core.progress_file import ProgressFile\nprogress = ProgressFile(sys.argv[1])\n"
              "for step in range(1, 1000):\n    progress.write({'step': step, 'loss': 1.0})\n")
    environ = {key: value for key, value in os.environ.items() if key != HOLD_ENV}
    process = subprocess.Popen([sys.executable, "-c", script, str(path)], env={**environ, HOLD_ENV: "3"})
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (path.exists() and path.read_text().count("\n") >= 3):
            time.sleep(0.05)
        time.sleep(0.3)
        assert process.poll() is None, "the role went on or exited instead of holding"
        assert [json.loads(line)["step"] for line in path.read_text().splitlines()] == [1, 2, 3]
    finally:
        process.kill()
        process.wait()

