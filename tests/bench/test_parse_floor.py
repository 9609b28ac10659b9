"""bench.parse_floor parses the files the report scans, and only them, in both of its modes."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.parse_floor import balanced_chunks, python_files

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "parse_floor.py"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for relative, text in {
        "a.py": "x = 1\n",
        "pkg/b.py": "def f():\n    return 2\n",
        "pkg/broken.py": "def f(:\n",
        ".hidden/c.py": "x = 3\n",
        "pkg/__pycache__/d.py": "x = 4\n",
        "node_modules/e.py": "x = 5\n",
        "notes.txt": "not python\n",
    }.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_it_finds_the_files_the_report_scans(tree: Path) -> None:
    assert sorted(Path(path).relative_to(tree).as_posix() for _, path in python_files(str(tree))) == [
        "a.py", "pkg/b.py", "pkg/broken.py",
    ]


@pytest.mark.parametrize("flags", [[], ["--no-gc"]], ids=["plain", "collector paused, no teardown"])
def test_it_counts_the_files_that_parse(tree: Path, flags: list[str]) -> None:
    finished = subprocess.run([sys.executable, str(SCRIPT), str(tree), "--jobs", "2", *flags],
                              capture_output=True, text=True, timeout=60)
    assert (finished.returncode, finished.stdout) == (0, "2\n"), finished.stderr


def test_chunks_hold_at_most_eight_files_largest_first() -> None:
    sized = [(size, f"f{size}.py") for size in range(1, 20)]
    chunks = balanced_chunks(sized)
    assert [len(chunk) for chunk in chunks] == [8, 8, 3]
    assert chunks[0][0] == "f19.py" and chunks[-1][-1] == "f1.py"
