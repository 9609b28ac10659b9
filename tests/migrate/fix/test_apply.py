"""Writing back: atomic, permissions kept, read-only and concurrently changed files left alone."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from migrate.fix.apply import fix_paths, write_atomically
from migrate.fix.documents import Unfixable

TF1 = "import tensorflow as tf\ntf.logging.info('x')\n"
FIXED = "from absl import logging\nimport tensorflow as tf\nlogging.info('x')\n"


def test_rewrite_keeps_permissions_and_leaves_no_temporary_file(write, tmp_path: Path) -> None:
    path = write("tool.py", TF1)
    path.chmod(0o751)
    [result] = fix_paths([str(tmp_path)], write=True, jobs=1)
    assert result.written and path.read_text() == FIXED
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert sorted(os.listdir(tmp_path)) == ["tool.py"]


def test_read_only_file_is_reported_not_rewritten(write, tmp_path: Path) -> None:
    path = write("ro.py", TF1)
    path.chmod(0o444)
    [result] = fix_paths([str(path)], write=True, jobs=1)
    assert result.failed and "read-only" in result.skipped
    assert path.read_text() == TF1


def test_a_file_changed_during_the_run_is_not_overwritten(write) -> None:
    path = write("a.py", "import tensorflow as tf\ntf.logging.info('edited meanwhile')\n")
    with pytest.raises(Unfixable, match="changed while migrate fix ran"):
        write_atomically(str(path), TF1.encode(), FIXED.encode())
    assert "edited meanwhile" in path.read_text()


def test_symlinked_file_is_rewritten_through_the_link(write, tmp_path: Path) -> None:
    target = write("real/a.py", TF1)
    (tmp_path / "link.py").symlink_to(target)
    write_atomically(str(tmp_path / "link.py"), TF1.encode(), FIXED.encode())
    assert (tmp_path / "link.py").is_symlink() and target.read_text() == FIXED


def test_diff_mode_changes_nothing_and_syntax_errors_are_skipped(write, tmp_path: Path) -> None:
    write("a.py", TF1)
    write("b.py", "import tensorflow as tf\ndef f(:\n    tf.logging.info(1)\n")
    write("c.py", "import os\n")
    results = {Path(result.path).name: result for result in fix_paths([str(tmp_path)], write=False, jobs=1)}
    assert results["a.py"].changed and not results["a.py"].written
    assert "+logging.info('x')" in results["a.py"].diff
    assert (tmp_path / "a.py").read_text() == TF1
    assert "syntax error at line 2" in results["b.py"].skipped and not results["b.py"].failed
    assert not results["c.py"].changed and results["c.py"].skipped is None


def test_parallel_run_matches_serial(write, tmp_path: Path) -> None:
    for index in range(20):
        write(f"pkg/m{index}.py", TF1)
    results = fix_paths([str(tmp_path)], write=True, jobs=2)
    assert len(results) == 20 and all(result.written for result in results)
    assert all(path.read_text() == FIXED for path in (tmp_path / "pkg").iterdir())


def test_diff_of_a_latin1_file_shows_its_characters(write, tmp_path: Path) -> None:
    write("l.py", b"# -*- coding: latin-1 -*-\nimport tensorflow as tf\ntf.logging.info('caf\xe9')\n")
    [result] = fix_paths([str(tmp_path)], write=False, jobs=1)
    assert "+logging.info('café')" in result.diff


def test_a_failed_write_leaves_the_original_whole_and_no_temporary_file(write, tmp_path: Path, monkeypatch) -> None:
    path = write("a.py", TF1)

    def disk_full(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(Unfixable, match="No space left on device"):
        write_atomically(str(path), TF1.encode(), FIXED.encode())
    assert path.read_text() == TF1 and sorted(os.listdir(tmp_path)) == ["a.py"]
