"""Fix a tree: find the files, fix each, and write it back atomically (or diff it).

Writing never leaves a half-written file: the new bytes go to a temporary
file in the same directory (same filesystem), get the original's permission
bits, are flushed to disk, and replace the original with one `os.replace`.
Just before that the file is read again; if it changed since it was fixed, it
is left alone and reported. Read-only files are reported, not rewritten.
Files go through worker processes like `migrate report` (LibCST is slow).
"""
from __future__ import annotations

import difflib
import multiprocessing
import os
import re
import stat
import tempfile
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache

from migrate.fix.documents import Outcome, Unfixable, fix_document
from migrate.fix.engine import Declined
from migrate.fix.registry import load_fixes
from migrate.report.exclusions import Exclusions
from migrate.report.sources import DEFAULT_EXCLUSIONS, DEFAULT_MAX_BYTES, SourceFile, discover

PARALLEL_THRESHOLD = 16


@dataclass
class FileFix:
    """What happened to one file: `skipped` is the reason when it was not fixed or not written."""

    path: str
    changed: bool = False
    written: bool = False
    rewrites: int = 0
    diff: str = ""
    skipped: str | None = None
    failed: bool = False
    declined: list[Declined] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def fix_paths(
    paths: Sequence[str], write: bool, jobs: int = 0, max_bytes: int = DEFAULT_MAX_BYTES,
    exclusions: Exclusions = DEFAULT_EXCLUSIONS,
) -> list[FileFix]:
    sources, skipped = discover(paths, exclusions)
    results = [FileFix(item.path, skipped=item.skipped) for item in skipped]
    jobs = jobs or os.cpu_count() or 1
    if jobs <= 1 or len(sources) < PARALLEL_THRESHOLD:
        results.extend(fix_file(source, write, max_bytes) for source in sources)
    else:
        context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as executor:
            results.extend(executor.map(fix_file, sources, [write] * len(sources), [max_bytes] * len(sources), chunksize=4))
    return sorted(results, key=lambda result: result.path)


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
    result.diff = unified_diff(source.display, data, outcome.data, outcome.encoding)
    if write:
        try:
            write_atomically(source.path, data, outcome.data)
            result.written = True
        except Unfixable as error:
            result.skipped, result.failed = str(error), True
    return result


def _may_need_fix(data: bytes) -> bool:
    """A cheap test before the LibCST parse (about 100× the cost of `ast.parse`)."""
    return b"tensorflow" in data and _leaf_names().search(data) is not None


@lru_cache(maxsize=1)
def _leaf_names() -> re.Pattern[bytes]:
    """Every moved module is reached through its last name (`logging`, `tf_logging`, `flags`, `app`)."""
    leaves = sorted({move.source.rpartition(".")[2] for fix in load_fixes().values() for move in fix.moves})
    return re.compile(("(" + "|".join(re.escape(leaf) for leaf in leaves) + r")\b").encode())


def _read(path: str, max_bytes: int) -> bytes:
    try:
        info = os.stat(path)
        if info.st_size > max_bytes:
            raise Unfixable(f"too large: {info.st_size} bytes exceeds the {max_bytes} byte cap (raise --max-file-size)")
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise Unfixable(f"unreadable: {error.strerror or error}") from None
    if b"\0" in data:
        raise Unfixable("binary file (contains NUL bytes), not Python source")
    return data


def write_atomically(path: str, original: bytes, new: bytes) -> None:
    """Replace `path`'s content with `new` if it still holds `original`; keep its permission bits."""
    target = os.path.realpath(path)
    try:
        info = os.stat(target)
    except OSError as error:
        raise Unfixable(f"not rewritten: {error.strerror or error}") from None
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(target, os.W_OK):
        raise Unfixable("read-only: not rewritten (make it writable, or see the change with --diff)")
    try:
        with open(target, "rb") as handle:
            current = handle.read()
    except OSError as error:
        raise Unfixable(f"not rewritten: {error.strerror or error}") from None
    if current != original:
        raise Unfixable("changed while migrate fix ran: not rewritten (run migrate fix again)")
    directory, name = os.path.split(target)
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".migrate-fix", dir=directory)
    except OSError as error:
        raise Unfixable(f"not rewritten: cannot create a temporary file in {directory}: {error.strerror or error}") from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(new)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        os.replace(temporary, target)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise Unfixable(f"not rewritten: {error.strerror or error}") from None
        raise


def unified_diff(display: str, old: bytes, new: bytes, encoding: str = "utf-8") -> str:
    """The change as text (decoded with the file's own encoding), paths as `a/...`, `b/...`."""
    old_lines = old.decode(encoding, errors="replace").splitlines(keepends=True)
    new_lines = new.decode(encoding, errors="replace").splitlines(keepends=True)
    name = display.lstrip("/")
    lines = difflib.unified_diff(old_lines, new_lines, f"a/{name}", f"b/{name}")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
