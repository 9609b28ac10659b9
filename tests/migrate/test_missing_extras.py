"""Without TensorFlow and numpy (a base install), the commands that need them are usage errors naming the extra."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

WITHOUT_EXTRAS = (
    "import sys\n"
    "for name in ('tensorflow', 'tensorflow_estimator', 'keras', 'numpy'):\n"
    "    sys.modules[name] = None  # `import name` raises ModuleNotFoundError, as on a base install\n"
    "from migrate.cli import main\n"
    "raise SystemExit(main(sys.argv[1:]))\n"
)


@pytest.mark.parametrize(
    "argv",
    [pytest.param(["parity", "--steps", "2"], id="parity"), pytest.param(["fetch-mnist"], id="fetch-mnist")],
)
def test_a_command_needing_tensorflow_names_the_extra(argv, tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-c", WITHOUT_EXTRAS, *argv, *(["--out", str(tmp_path / "out")] if argv[0] == "parity" else [])],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert completed.returncode == 2, completed.stderr
    assert f"migrate {argv[0]}: error: this command needs `" in completed.stderr
    assert "pip install 'tf1-migrate[tf215]'" in completed.stderr
    assert "Traceback" not in completed.stderr
