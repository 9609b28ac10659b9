"""Other files' wrapper functions, found while the file calling one is analysed: no second pass.

A file that writes `contrib.slim().arg_scope(...)` or `tfe = contrib.eager()`
needs to know that another file's function returns a TensorFlow module
(`migrate.report.wrappers`). `WrapperLookup.get("pkg.contrib.slim")` finds the
files whose module is `pkg.contrib` and reads their wrappers: from this
process's own analysis of them, or by analysing one no process has started
yet right there (its result then goes back with the chunk being analysed, and
no other worker analyses it again: `Claims`, which also hands the wrappers of
a file analysed in one process to the others). Only a file another process is
still analysing is parsed a second time here, for its wrappers alone.

This replaced a second pass that analysed again, after the whole pool had
finished, every file calling another file's wrapper: on tensor2tensor, 33 of
453 files, a quarter of its bytes parsed twice, behind a barrier.
"""
from __future__ import annotations

import marshal
import mmap
import os
from collections.abc import Callable, Sequence

from migrate.report.model import FileResult
from migrate.scanning.sources import SourceFile, module_names

FREE, TAKEN, DONE, DEFINES_WRAPPERS = 0, 1, 2, 3
MAX_DEPTH = 8
"""Files analysed on demand inside one another at most (a wrapper call inside a file analysed on demand, ...);
deeper, a file's wrappers are read without resolving its own calls, so the recursion stays shallow."""


class Claims:
    """Which files some process has started analysing, in an anonymous shared mapping that worker processes
    forked after its making share (`mmap(-1)` is MAP_SHARED): each file is analysed by the first process to
    claim it. Claiming is a read then a write, not atomic: two processes may both take a file, and the
    scanner keeps one result per path (`migrate.report.scanner`).

    The wrappers of a file that defines some are written to `directory` (a small file named by its index,
    renamed into place) before its state says so. Without a directory (one process), or when the file
    cannot be written, the state stays TAKEN and another process reads those wrappers by analysing the
    file itself: slower, never wrong.
    """

    def __init__(self, count: int, directory: str | None = None) -> None:
        self.states = mmap.mmap(-1, max(count, 1))
        self.directory = directory

    def claim(self, index: int) -> bool:
        if self.states[index] != FREE:
            return False
        self.states[index] = TAKEN
        return True

    def finish(self, index: int, result: FileResult) -> None:
        if not result.wrappers:
            self.states[index] = DONE
        elif self.directory is not None and _written(os.path.join(self.directory, str(index)), result.wrappers):
            self.states[index] = DEFINES_WRAPPERS

    def release(self, index: int) -> None:
        self.states[index] = FREE

    def state(self, index: int) -> int:
        return self.states[index]

    def wrappers(self, index: int) -> dict[str, str] | None:
        """The wrappers of a file some process has analysed; None while it is being analysed (or not shared)."""
        state = self.states[index]
        if state == DONE:
            return {}
        if state != DEFINES_WRAPPERS or self.directory is None:
            return None
        try:
            with open(os.path.join(self.directory, str(index)), "rb") as handle:
                return marshal.load(handle)
        except (OSError, EOFError, ValueError, TypeError):
            return None


def _written(path: str, wrappers: dict[str, str]) -> bool:
    """Whether `wrappers` could be written to `path` (through a file of this process's, renamed into place:
    a reader never sees half of it, even when two processes both took the file)."""
    partial = f"{path}.{os.getpid()}"
    try:
        with open(partial, "wb") as handle:
            marshal.dump(wrappers, handle)
        os.replace(partial, path)
    except OSError:
        return False
    return True


Analyse = Callable[[SourceFile, "WrapperLookup | None"], FileResult]
"""Analyse one file knowing other files' wrappers through the lookup (None: only its own); never raises."""


class WrapperLookup:
    """One process's view of the scanned files' wrapper functions; `analysed(index)` analyses a file it claims."""

    def __init__(self, sources: Sequence[SourceFile], claims: Claims, analyse: Analyse) -> None:
        self.sources = sources
        self.claims = claims
        self.analyse = analyse
        self.extra: list[FileResult] = []
        """Files analysed on demand since `take_extra` was last called."""
        self._wrappers: dict[int, dict[str, str]] = {}
        self._resolved: dict[str, str | None] = {}
        self._by_stem: dict[str, list[int]] | None = None
        self._defined: dict[str, list[int]] = {}
        self._depth = 0

    def analysed(self, index: int) -> FileResult | None:
        """The file's result, or None when another process (or this one, on demand) has claimed it."""
        if not self.claims.claim(index):
            return None
        result = self.analyse(self.sources[index], self)
        self.claims.finish(index, result)
        self._wrappers[index] = result.wrappers
        return result

    def take_extra(self) -> list[FileResult]:
        extra, self.extra = self.extra, []
        return extra

    def get(self, qualified: str) -> str | None:
        """The TensorFlow module another file's function `qualified` (`pkg.helpers.slim`) returns, else None."""
        if qualified in self._resolved:
            return self._resolved[qualified]
        module, _, function = qualified.rpartition(".")
        target = None
        for index in self._defining(module) if module else ():
            target = self._wrappers_of(index).get(function)
            if target is not None:
                break
        self._resolved[qualified] = target
        return target

    def _wrappers_of(self, index: int) -> dict[str, str]:
        known = self._wrappers.get(index)
        if known is None:
            known = self.claims.wrappers(index)
        if known is None:
            result = None
            if self.claims.state(index) == FREE and self._depth < MAX_DEPTH:
                self._depth += 1
                try:
                    result = self.analysed(index)
                finally:
                    self._depth -= 1
                if result is not None and result.skipped:
                    self.claims.release(index)  # analysed again where it comes, deep recursion is no reason here
                elif result is not None:
                    self.extra.append(result)
            if result is None:  # being analysed by another process, or by a caller up this stack: its wrappers alone
                result = self.analyse(self.sources[index], None)
            known = result.wrappers
        self._wrappers[index] = known
        return known

    def _defining(self, module: str) -> list[int]:
        """The files whose module names (`sources.module_names`) include `module`, in discovery order."""
        if self._by_stem is None:
            self._by_stem = {}
            for index, source in enumerate(self.sources):
                self._by_stem.setdefault(_last_name(source.path), []).append(index)
        defining = self._defined.get(module)
        if defining is None:
            candidates = self._by_stem.get(module.rpartition(".")[2], ())
            defining = self._defined[module] = [index for index in candidates if module in module_names(self.sources[index])[1]]
        return defining


def _last_name(path: str) -> str:
    """The last part of a file's module names: its stem, or its directory's name for a package's `__init__`."""
    directory, name = os.path.split(path)
    stem = os.path.splitext(name)[0]
    return os.path.basename(directory) if stem == "__init__" else stem
