"""`migrate fix` can be stopped: workers die with their parent, an interrupt says what was written, FIFOs are
skipped, owner/group/mode and hard links are kept, progress shows on a terminal."""
from __future__ import annotations

import os
import pty
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from migrate.fix.apply import fix_paths

TF1 = "import tensorflow as tf\n\n\ndef step(n):\n    tf.logging.info('step %d', n)\n    return n\n"
ROOT = Path(__file__).resolve().parents[3]
FILES = 200


@pytest.fixture(scope="module")
def big_tree(tmp_path_factory) -> Path:
    tree = tmp_path_factory.mktemp("tree")
    for index in range(FILES):
        (tree / f"m{index:03}.py").write_text(TF1 + "\n".join(f"x{i} = step({i})" for i in range(60)) + "\n")
    return tree


def _copy(tree: Path, destination: Path) -> Path:
    destination.mkdir()
    for path in tree.iterdir():
        (destination / path.name).write_bytes(path.read_bytes())
    return destination


def _start_fix(tree: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "migrate", "fix", str(tree), "--jobs", "2"], cwd=tree.parent,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)


def _first_fixed_line(process: subprocess.Popen) -> str:
    for line in process.stderr:
        if line.startswith("fixed "):
            return line
    raise AssertionError(f"no file was reported fixed; exit {process.wait()}")


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find the workers")
def test_a_sigkilled_fix_leaves_no_live_worker_within_5_seconds(big_tree: Path, tmp_path: Path) -> None:
    tree = _copy(big_tree, tmp_path / "tree")
    process = _start_fix(tree)
    _first_fixed_line(process)
    workers = [pid for pid in _children(process.pid) if _alive(pid)]
    assert len(workers) == 2, "the pool's two workers run"
    process.kill()
    process.wait()
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "a worker outlived its killed parent by 5 s"
    assert not list(tree.glob(".*.migrate-fix")), "no temporary file is left behind"


def test_an_interrupted_fix_lists_every_file_it_rewrote(big_tree: Path, tmp_path: Path) -> None:
    tree = _copy(big_tree, tmp_path / "tree")
    process = _start_fix(tree)
    reported = [_first_fixed_line(process)]
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
    rest = process.stderr.read()
    assert process.wait(timeout=60) == 130, rest
    reported += [line for line in rest.splitlines() if line.startswith("fixed ")]
    assert "interrupted (" in rest and "file(s) rewritten before the interrupt are listed above" in rest
    rewritten = {path.name for path in tree.glob("*.py") if "from absl import logging" in path.read_text()}
    assert {Path(line.split()[1]).name for line in reported} == rewritten and 0 < len(rewritten) < FILES
    assert not list(tree.glob(".*.migrate-fix"))


def test_a_fifo_named_on_the_command_line_is_skipped(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    completed = subprocess.run([sys.executable, "-m", "migrate", "fix", str(fifo)], capture_output=True, text=True,
                               timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert completed.returncode == 0, completed.stderr
    assert f"skipped {fifo}: not a regular file" in completed.stderr


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root")
def test_owner_group_and_mode_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "owned.py"
    path.write_text(TF1)
    os.chown(path, 1234, 5678)
    path.chmod(0o640)
    [result] = fix_paths([str(path)], write=True, jobs=1)
    info = path.stat()
    assert result.written and (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (1234, 5678, 0o640)


def test_hard_links_are_not_broken(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text(TF1)
    os.link(path, tmp_path / "b.py")
    inode = path.stat().st_ino
    [result] = fix_paths([str(path)], write=True, jobs=1)
    assert result.written and path.stat().st_ino == inode and path.stat().st_nlink == 2
    assert (tmp_path / "b.py").read_text() == path.read_text() != TF1
    assert sorted(os.listdir(tmp_path)) == ["a.py", "b.py"]


def test_progress_shows_on_a_terminal(tmp_path: Path) -> None:
    for index in range(3):
        (tmp_path / f"m{index}.py").write_text(TF1)
    controller, terminal = pty.openpty()
    try:
        completed = subprocess.run([sys.executable, "-m", "migrate", "fix", str(tmp_path), "--jobs", "1"],
                                   stderr=terminal, stdout=subprocess.DEVNULL, timeout=60,
                                   env={**os.environ, "PYTHONPATH": str(ROOT)})
        os.close(terminal)
        terminal = -1
        shown = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(controller)
        if terminal != -1:
            os.close(terminal)
    assert completed.returncode == 0
    assert b"migrate fix: 3/3 files" in shown and shown.count(b"fixed ") == 3
