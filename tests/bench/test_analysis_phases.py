"""bench.analysis_phases times the report's per-file analysis by phase, against the parse of the same files."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.analysis_phases", *arguments],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_it_times_each_phase_of_a_tensorflow_file_and_the_floor(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(
        "import tensorflow as tf\n\nclass Hook(tf.train.SessionRunHook):\n    pass\n\n"
        "def model_fn(features, labels, mode):\n    return tf.layers.dense(features, 1)\n"
    )
    (tmp_path / "plain.py").write_text("x = 1\n")
    finished = _run(str(tmp_path), "--repeats", "1")
    assert finished.returncode == 0, finished.stderr
    rows = {line.split("  ")[0].strip(): line for line in finished.stdout.splitlines()[1:]}
    for phase in ("parse", "statement_pass", "collect", "_run_checks", "analyse_file, total", "floor (read + parse)"):
        assert phase in rows, finished.stdout
    assert "2 files" in finished.stdout.splitlines()[0]


def test_a_tree_that_is_not_a_directory_is_a_usage_error(tmp_path: Path) -> None:
    finished = _run(str(tmp_path / "missing"))
    assert finished.returncode == 2
    assert "TREE must be a directory" in finished.stderr
