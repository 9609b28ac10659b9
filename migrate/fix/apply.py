"""Fix a tree: find the files, fix each, and write it back safely (or diff it), reporting each as it is done.

Writing never leaves a half-written file and keeps what the file is: the new
bytes go to a temporary file in the same directory, are flushed to disk, get
the original's mode, owner and group, and replace the original with one
`os.replace`. A file with several hard links, or whose owner or group this
process cannot give the copy, is rewritten in place instead (so every link
sees the fix and the inode keeps its owner): the new bytes are first made
durable in that temporary file, then written over the original with the
interrupt signals held, then the temporary file is removed. Just before
writing, the file is read again; if it changed since it was fixed, it is left
alone and reported. Read-only files, FIFOs, devices and sockets (even named on
the command line) are reported, never opened for writing.

Files go through worker processes like `migrate report` (LibCST is slow), one
file per task, and results come back as each file is done (`FixRun`), so
an interrupted or killed run has said what it rewrote. Workers end with their
parent (`migrate.core.orphans`); on Ctrl-C (or SIGTERM, see the command) the
files not started are cancelled, the ones being written are finished and
reported.
"""
from __future__ import annotations

import difflib
import multiprocessing
import os
import re
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache

from migrate.core.orphans import cleanup_if_ended, die_with_parent
from migrate.fix.documents import Outcome, Unfixable, fix_document
from migrate.fix.registry import fix_leaves
from migrate.fix.result import Declined
from migrate.scanning.exclusions import Exclusions
from migrate.scanning.sources import DEFAULT_EXCLUSIONS, DEFAULT_MAX_BYTES, SourceFile, discover

PARALLEL_THRESHOLD = 16


@dataclass
class FileFix:
    """What happened to one file: `skipped` is the reason when it was not fixed or not written."""

    path: str
    changed: bool = False
    written: bool = False
    rewrites: int = 0
    diff: str = ""
    """The change as a unified diff, when it was not written (`--diff`)."""
    skipped: str | None = None
    failed: bool = False
    declined: list[Declined] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def fix_paths(
    paths: Sequence[str], write: bool, jobs: int = 0, max_bytes: int = DEFAULT_MAX_BYTES,
    exclusions: Exclusions = DEFAULT_EXCLUSIONS,
) -> list[FileFix]:
    """Every file's `FileFix`, sorted by path (`FixRun` gives them as they are done)."""
    return sorted(FixRun(paths, write, jobs, max_bytes, exclusions), key=lambda result: result.path)


class FixRun:
    """The files under `paths`, fixed when iterated: a `FileFix` per file as it is done (`total` of them)."""

    def __init__(
        self, paths: Sequence[str], write: bool, jobs: int = 0, max_bytes: int = DEFAULT_MAX_BYTES,
        exclusions: Exclusions = DEFAULT_EXCLUSIONS,
    ) -> None:
        self.sources, skipped = discover(paths, exclusions)
        self.skipped = [FileFix(item.path, skipped=item.reason) for item in skipped]
        self.write, self.max_bytes = write, max_bytes
        self.jobs = jobs or os.cpu_count() or 1
        self.total = len(self.sources) + len(self.skipped)
        self._pending: set[Future[FileFix]] = set()
        self._ready: list[Future[FileFix]] = []
        """Done by a worker, not yet given out: what an interrupt must still report."""

    def __iter__(self) -> Iterator[FileFix]:
        yield from self.skipped
        if self.jobs <= 1 or len(self.sources) < PARALLEL_THRESHOLD:
            for source in self.sources:
                yield fix_file(source, self.write, self.max_bytes)
        else:
            yield from self._in_workers()

    def _in_workers(self) -> Iterator[FileFix]:
        context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
        with ProcessPoolExecutor(max_workers=self.jobs, mp_context=context, initializer=die_with_parent) as executor, \
                _ctrl_c_at_safe_points() as interrupted:
            self._pending = {executor.submit(fix_file, source, self.write, self.max_bytes) for source in self.sources}
            try:
                while self._pending or self._ready:
                    while not self._ready:
                        interrupted.raise_if_set()
                        done, self._pending = wait(self._pending, timeout=WAIT_SLICE_SECONDS,
                                                   return_when=FIRST_COMPLETED)
                        self._ready = list(done)
                    interrupted.raise_if_set()
                    yield self._ready.pop().result()
            except BaseException:
                for future in self._pending:  # not started: cancelled, so leaving the pool does not run them
                    future.cancel()
                raise

    def interrupted(self) -> list[FileFix]:
        """After a Ctrl-C wherever it landed: the files done but not yet given out, and the ones being written
        (they finish); the files not started were cancelled. Each is given once."""
        for future in self._pending:
            future.cancel()
        finished = [future.result() for future in [*self._ready, *self._pending] if not future.cancelled()]
        self._ready, self._pending = [], set()
        return finished


WAIT_SLICE_SECONDS = 0.1
"""How long the parent waits for a worker before it looks whether Ctrl-C was pressed meanwhile."""


class _CtrlC:
    """Set by the SIGINT handler; `raise_if_set` turns it into a KeyboardInterrupt where the parent holds no lock."""

    def __init__(self) -> None:
        self.pressed = False

    def handle(self, signum: int, frame: object) -> None:
        self.pressed = True

    def raise_if_set(self) -> None:
        if self.pressed:
            self.pressed = False
            raise KeyboardInterrupt


@contextmanager
def _ctrl_c_at_safe_points() -> Iterator[_CtrlC]:
    """Ctrl-C while the workers run is raised only between waits, never inside `concurrent.futures`.

    A KeyboardInterrupt raised asynchronously can land while the main thread
    holds a future's condition lock (inside `wait`), and the interrupt's own
    clean-up (`cancel`, `result`) then blocks on that lock forever: seen once
    as a hung `migrate fix` in CI. Off the main thread (library use) signals
    cannot be handled here and nothing changes.
    """
    ctrl_c = _CtrlC()
    if threading.current_thread() is not threading.main_thread():
        yield ctrl_c
        return
    previous = signal.signal(signal.SIGINT, ctrl_c.handle)
    try:
        yield ctrl_c
    finally:
        signal.signal(signal.SIGINT, previous)


def fix_file(source: SourceFile, write: bool, max_bytes: int = DEFAULT_MAX_BYTES) -> FileFix:
    result = FileFix(source.display)
    try:
        data = _read(source.path, max_bytes)
        outcome = fix_document(source.path, data) if _may_need_fix(data) else Outcome(data, False)
    except Unfixable as error:
        result.skipped = str(error)
        return result
    except Exception as error:  # noqa: BLE001 - one bad file must not abort the run
        result.skipped = f"internal error while fixing: {type(error).__name__}: {error}"
        result.failed = True
        return result
    result.declined, result.notes = outcome.declined, outcome.notes
    if not outcome.changed:
        return result
    result.changed, result.rewrites = True, outcome.rewrites
    if not write:
        result.diff = unified_diff(source.display, data, outcome.data, outcome.encoding)
        return result
    try:
        write_atomically(source.path, data, outcome.data)
        result.written = True
    except Unfixable as error:
        result.skipped, result.failed = str(error), True
    return result


def _may_need_fix(data: bytes) -> bool:
    """A cheap test before any analysis: the file names TensorFlow and one of the names a fix rewrites."""
    return b"tensorflow" in data and not _leaf_names().isdisjoint(_WORD.findall(data))


_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


@lru_cache(maxsize=1)
def _leaf_names() -> frozenset[bytes]:
    """Every rewritten name is reached through its last name (`logging`, `tf_logging`, `flags`, `app`, `log`, …)."""
    return frozenset(leaf.encode() for leaf in fix_leaves())


def _read(path: str, max_bytes: int) -> bytes:
    """The file's bytes; never blocks on a FIFO (opened non-blocking, then checked to be a regular file)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise Unfixable(f"unreadable: {error.strerror or error}") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise Unfixable("not a regular file (FIFO, device or socket): not read")
        if info.st_size > max_bytes:
            raise Unfixable(f"too large: {info.st_size} bytes exceeds the {max_bytes} byte cap (raise --max-file-size)")
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read()
    except OSError as error:
        raise Unfixable(f"unreadable: {error.strerror or error}") from None
    finally:
        os.close(descriptor)
    if b"\0" in data:
        raise Unfixable("binary file (contains NUL bytes), not Python source")
    return data


def write_atomically(path: str, original: bytes, new: bytes) -> None:
    """Replace `path`'s content with `new` if it still holds `original`; keep its mode, owner, group and links."""
    target = os.path.realpath(path)
    try:
        info = os.stat(target)
    except OSError as error:
        raise Unfixable(f"not rewritten: {error.strerror or error}") from None
    if not stat.S_ISREG(info.st_mode):
        raise Unfixable("not a regular file (FIFO, device or socket): not rewritten")
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(target, os.W_OK):
        raise Unfixable("read-only: not rewritten (make it writable, or see the change with --diff)")
    try:
        with open(target, "rb") as handle:
            current = handle.read()
    except OSError as error:
        raise Unfixable(f"not rewritten: {error.strerror or error}") from None
    if current != original:
        raise Unfixable("changed while migrate fix ran: not rewritten (run migrate fix again)")
    in_place = info.st_nlink > 1 or not _can_give(info)
    with _temporary_copy(target, new, info, ownership=not in_place) as temporary:
        try:
            if in_place:
                _overwrite(target, new)
            else:
                os.replace(temporary, target)
        except OSError as error:
            raise Unfixable(f"not rewritten: {error.strerror or error}") from None


def _can_give(info: os.stat_result) -> bool:
    """Whether a new file of ours can get `info`'s owner and group (root, or our file in one of our groups)."""
    if not hasattr(os, "geteuid"):
        return True
    if os.geteuid() == 0:
        return True
    return info.st_uid == os.geteuid() and (info.st_gid == os.getegid() or info.st_gid in os.getgroups())


@contextmanager
def _temporary_copy(target: str, data: bytes, info: os.stat_result, ownership: bool) -> Iterator[str]:
    """`data` durable in a temporary file beside `target` with its mode (and owner and group); removed after
    the block unless the block moved it, and when a dying pool worker is ended midway."""
    directory, name = os.path.split(target)
    # SIGTERM (a dying pool worker's end) is held from the file's creation until its cleanup is registered:
    # a worker ended in between left the temporary file behind.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM}) if hasattr(signal, "pthread_sigmask") else None
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".migrate-fix", dir=directory)
    except OSError as error:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        raise Unfixable(f"not rewritten: cannot create a temporary file in {directory}: {error.strerror or error}") from None

    def remove() -> None:
        try:
            os.unlink(temporary)
        except OSError:
            pass

    with cleanup_if_ended(remove):
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a SIGTERM that came meanwhile is delivered now
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temporary, stat.S_IMODE(info.st_mode))
            if ownership and hasattr(os, "chown"):
                current = os.stat(temporary)
                if (current.st_uid, current.st_gid) != (info.st_uid, info.st_gid):
                    os.chown(temporary, info.st_uid, info.st_gid)
            yield temporary
        except OSError as error:
            raise Unfixable(f"not rewritten: {error.strerror or error}") from None
        finally:
            remove()


def _overwrite(target: str, data: bytes) -> None:
    """Write `data` over `target`'s own inode (links, owner and group stay), with SIGINT/SIGTERM held so an
    interrupt never leaves it half old, half new."""
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held) if hasattr(signal, "pthread_sigmask") else None
    try:
        with open(target, "r+b") as handle:
            handle.write(data)
            handle.truncate()
            handle.flush()
            os.fsync(handle.fileno())
    finally:
        if previous is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def unified_diff(display: str, old: bytes, new: bytes, encoding: str = "utf-8") -> str:
    """The change as text (decoded with the file's own encoding), paths as `a/...`, `b/...`."""
    old_lines = old.decode(encoding, errors="replace").splitlines(keepends=True)
    new_lines = new.decode(encoding, errors="replace").splitlines(keepends=True)
    name = display.lstrip("/")
    lines = difflib.unified_diff(old_lines, new_lines, f"a/{name}", f"b/{name}")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
