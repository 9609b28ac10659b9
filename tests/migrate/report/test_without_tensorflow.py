"""The report runs where `import tensorflow` (and numpy) fail: a subprocess with failing stubs first on sys.path."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

WRAPPER = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[1])
    for name in ("tensorflow", "tensorflow_estimator", "numpy"):
        try:
            __import__(name)
        except ImportError:
            pass
        else:
            raise SystemExit(f"stub for {name} did not fail")
    from migrate.cli import main
    code = main(sys.argv[2:])
    if "tensorflow" in sys.modules or "numpy" in sys.modules:
        raise SystemExit(99)
    raise SystemExit(code)
    """
)


def test_report_runs_where_tensorflow_cannot_be_imported(write, tmp_path: Path) -> None:
    stubs = tmp_path / "stubs"
    for name in ("tensorflow", "tensorflow_estimator", "numpy"):
        write(f"stubs/{name}/__init__.py", f"raise ImportError('{name} is deliberately unavailable in this test')\n")
    write("code/train.py", "import tensorflow.compat.v1 as tf\nclass H(tf.train.SessionRunHook):\n    pass\nx = tf.placeholder(tf.float32)\n")
    completed = subprocess.run(
        [sys.executable, "-c", WRAPPER, str(stubs), "report", str(tmp_path / "code"), "--format", "json", "--jobs", "2"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert completed.returncode == 1, completed.stderr
    data = json.loads(completed.stdout)
    assert sorted(finding["code"] for finding in data["findings"]) == ["TFM201", "TFM301"]
    assert [hook["class"] for hook in data["hooks"]] == ["H"] and data["hooks"][0]["phases"] == []


def test_scaffold_runs_where_tensorflow_cannot_be_imported(write, tmp_path: Path) -> None:
    for name in ("tensorflow", "tensorflow_estimator", "numpy", "keras"):
        write(f"stubs/{name}/__init__.py", f"raise ImportError('{name} is deliberately unavailable in this test')\n")
    write("code/train.py", "import tensorflow as tf\nclass H(tf.train.SessionRunHook):\n  def end(self, session):\n    print(session)\n")
    completed = subprocess.run(
        [sys.executable, "-c", WRAPPER, str(tmp_path / "stubs"), "scaffold", str(tmp_path / "code"), "-o", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert completed.returncode == 0, completed.stderr
    assert "def on_train_end(self, logs=None):" in (tmp_path / "out" / "h_callback.py").read_text()

