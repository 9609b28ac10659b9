"""`scan(paths)`: discover, analyse files in parallel, then the whole-codebase pass.

Files are analysed in worker processes (chunks of a few files, so one huge
file does not hold the others back); each worker returns plain `FileResult`s.
The class hierarchy, suppression comments and `--select`/`--ignore` are
applied afterwards, in the parent, so they see the whole codebase.
"""
from __future__ import annotations

import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import NamedTuple, TextIO

from migrate.report.analysis import analyse_file
from migrate.report.collector import paused
from migrate.report.equivalents import equivalents
from migrate.report.hierarchy import HookClass, HookInstantiation, find_hook_instantiations, find_hooks
from migrate.report.model import FileResult, Finding
from migrate.report.registry import CHECKS, Rule, fallback_codes, load_rules, matches
from migrate.report.wrapper_lookup import Claims, WrapperLookup
from migrate.report.wrappers import WrapperSource
from migrate.scanning.api_tree import api_tree
from migrate.scanning.exclusions import Exclusions
from migrate.scanning.sources import DEFAULT_EXCLUSIONS, DEFAULT_MAX_BYTES, SourceFile, discover

CHUNK_SIZE = 8
CHUNK_BYTES = 256 * 1024
PARALLEL_THRESHOLD = 32
PROGRESS_THRESHOLD = 100


class ScanOptions(NamedTuple):
    jobs: int = 0
    max_bytes: int = DEFAULT_MAX_BYTES
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    callbacks_dir: Path | None = None
    progress: TextIO | None = None
    exclusions: Exclusions = DEFAULT_EXCLUSIONS
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(gitignore-style pattern relative to `project_root`, codes or prefixes): `[tool.migrate] per-file-ignores`."""
    project_root: str = ""
    stdin: SourceFile | None = None
    """The file that stands for the path `-` (stdin, copied to a temporary file)."""

    def wants(self, code: str) -> bool:
        return (not self.select or matches(code, self.select)) and not matches(code, self.ignore)


class Report:
    """What a scan found; `findings` is replaced when a baseline filters it (`migrate report --baseline`)."""

    def __init__(
        self,
        paths: list[str],
        files: list[FileResult],
        skipped: list[FileResult],
        findings: list[Finding],
        hooks: list[HookClass],
        rules: dict[str, Rule],
        elapsed: float = 0.0,
        suppressed: int = 0,
        notes: list[str] | None = None,
    ) -> None:
        self.paths = paths
        self.files = files
        self.skipped = skipped
        self.findings = findings
        self.hooks = hooks
        self.rules = rules
        self.elapsed = elapsed
        self.suppressed = suppressed
        self.notes = notes if notes is not None else []

    @property
    def exit_code(self) -> int:
        return 1 if self.findings else 0

    def counts_by_rule(self) -> dict[str, int]:
        return _most_first(Counter(finding.code for finding in self.findings))

    def counts_by_file(self) -> dict[str, int]:
        return _most_first(Counter(finding.path for finding in self.findings))

    def effort(self) -> dict[str, dict[str, int]]:
        """effort class → {rule code: findings}, in `registry.EFFORTS` order."""
        overview: dict[str, dict[str, int]] = {"redesign": {}, "rewrite": {}, "rename": {}}
        for code, count in self.counts_by_rule().items():
            overview[self.rules[code].effort][code] = count
        return overview


def _most_first(counts: Counter[str]) -> dict[str, int]:
    """The counts, largest first, ties by name."""
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def scan(paths: Sequence[str], options: ScanOptions = ScanOptions()) -> Report:
    """Scan `paths` with the garbage collector paused (see `migrate.report.collector`)."""
    with paused():
        return _scan(paths, options)


def _scan(paths: Sequence[str], options: ScanOptions) -> Report:
    started = time.perf_counter()
    rules = load_rules()
    hook_map = equivalents(options.callbacks_dir)  # loaded before workers fork, so they inherit it
    api_tree()  # likewise the API tree data
    sources, unscannable = discover(paths, options.exclusions, options.stdin)
    skipped = [FileResult(item.path, skipped=item.reason) for item in unscannable]
    results = analyse_all(sources, options)
    skipped.extend(result for result in results if result.skipped)
    scanned = [result for result in results if not result.skipped]
    hooks = _hooks_of(scanned, options, hook_map)
    findings = [finding for result in scanned for finding in result.findings] + _hook_findings(hooks)
    findings += _whole_codebase_findings(HookInstantiation, find_hook_instantiations(scanned, hooks))
    findings = _without_covered_fallbacks(findings, rules)
    suppressions = {result.path: result.suppressions for result in scanned if result.suppressions}
    kept = [finding for finding in findings if options.wants(finding.code)] if options.select or options.ignore else findings
    if options.per_file_ignores:
        from migrate.report.per_file_ignores import per_file_ignored

        ignored = per_file_ignored(options.per_file_ignores, options.project_root)
        kept = [finding for finding in kept if not ignored(finding.path, finding.code)]
    visible = sorted(finding for finding in kept if not _suppressed(finding, suppressions)) if suppressions else sorted(kept)
    notes = [f"{result.path}: {note}" for result in scanned for note in result.notes]
    return Report(
        paths=list(paths),
        files=sorted(scanned, key=lambda result: result.path),
        skipped=sorted(skipped, key=lambda result: result.path),
        findings=visible,
        hooks=hooks,
        rules=rules,
        elapsed=time.perf_counter() - started,
        suppressed=len(kept) - len(visible),
        notes=notes,
    )


def _hooks_of(scanned: list[FileResult], options: ScanOptions, hook_map: dict) -> list[HookClass]:
    """The hooks of the scanned files, their hierarchy completed from unscanned in-repo files
    (`migrate.report.context_files`) under the project root."""
    if not options.project_root:
        return find_hooks(scanned, hook_map)
    from migrate.report.context_files import context_results

    context = context_results(scanned, options.project_root,
                              lambda source: analyse_file(source, options.max_bytes, hook_map))
    if not context:
        return find_hooks(scanned, hook_map)
    own = {result.path for result in scanned}
    return [hook for hook in find_hooks([*scanned, *context], hook_map) if hook.path in own]


def analyse_all(sources: list[SourceFile], options: ScanOptions) -> list[FileResult]:
    """Every file analysed once, knowing the wrapper functions of the other files it calls
    (`migrate.report.wrapper_lookup`), in a pool of workers forked once (serially for a few files or `--jobs 1`)."""
    jobs = options.jobs or os.cpu_count() or 1
    progress = _Progress(options.progress, len(sources))
    results: dict[str, FileResult] = {}
    if jobs <= 1 or len(sources) < PARALLEL_THRESHOLD:
        lookup = _lookup(sources, Claims(len(sources)), options.max_bytes, options.callbacks_dir)
        for index in range(len(sources)):
            progress.advance(_keep(results, _analysed([index], lookup)))
    else:
        _analyse_in_pool(sources, options, jobs, lambda new: progress.advance(_keep(results, new)))
    progress.close()
    return list(results.values())


def _analyse_in_pool(
    sources: list[SourceFile], options: ScanOptions, jobs: int, receive: Callable[[list[FileResult]], None]
) -> None:
    """The chunks analysed by `jobs` workers sharing their claims and the wrappers found (a temporary directory)."""
    import shutil  # only a parallel run shares wrappers through files (a serial run on a few files starts faster)
    import tempfile

    forked = "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork") if forked else None
    try:
        directory: str | None = tempfile.mkdtemp(prefix="migrate-report-")
    except OSError:  # no writable temporary directory: the workers then read each other's wrappers by analysis
        directory = None
    claims = Claims(len(sources), directory)
    arguments = (sources, claims if forked else None, options.max_bytes, options.callbacks_dir)
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_start_worker, initargs=arguments) as executor:
            futures = [executor.submit(analyse_chunk, chunk) for chunk in _balanced_chunks(sources)]
            for future in as_completed(futures):
                receive(future.result())
    finally:
        if directory is not None:
            shutil.rmtree(directory, ignore_errors=True)


def _keep(results: dict[str, FileResult], new: list[FileResult]) -> int:
    """Add the results of paths not seen yet (two workers may both have claimed a file); how many were new."""
    count = 0
    for result in new:
        if result.path not in results:
            results[result.path] = result
            count += 1
    return count


def _balanced_chunks(sources: list[SourceFile]) -> list[list[int]]:
    """Indexes into `sources`, largest files first, in chunks of at most CHUNK_SIZE files or CHUNK_BYTES: a few
    huge generated files (TensorFlow's gen_*_ops.py) then do not end up together at the tail."""
    sized = [(_size(source), index) for index, source in enumerate(sources)]
    sized.sort(key=lambda item: -item[0])
    chunks: list[list[int]] = []
    current: list[int] = []
    budget = 0
    for size, index in sized:
        if current and (len(current) == CHUNK_SIZE or budget + size > CHUNK_BYTES):
            chunks.append(current)
            current, budget = [], 0
        current.append(index)
        budget += size
    if current:
        chunks.append(current)
    return chunks


def _size(source: SourceFile) -> int:
    try:
        return os.stat(source.path).st_size
    except OSError:
        return 0


_worker_lookup: WrapperLookup | None = None
"""A worker process's lookup (`_start_worker`), with the files it has analysed on demand."""


def _start_worker(sources: list[SourceFile], claims: Claims | None, max_bytes: int, callbacks_dir: Path | None) -> None:
    """Worker initializer: the claims are shared when forked; a spawned worker has its own (the parent
    then drops the files two workers both analysed, `_keep`)."""
    global _worker_lookup
    _worker_lookup = _lookup(sources, claims or Claims(len(sources)), max_bytes, callbacks_dir)


def analyse_chunk(indexes: list[int]) -> list[FileResult]:
    """Worker entry point: the files of the chunk no process has claimed yet, and those analysed on demand."""
    assert _worker_lookup is not None, "analyse_chunk runs in a worker started by _start_worker"
    return _analysed(indexes, _worker_lookup)


def _analysed(indexes: list[int], lookup: WrapperLookup) -> list[FileResult]:
    results = [result for result in map(lookup.analysed, indexes) if result is not None]
    return results + lookup.take_extra()


def _lookup(sources: list[SourceFile], claims: Claims, max_bytes: int, callbacks_dir: Path | None) -> WrapperLookup:
    hook_map = equivalents(callbacks_dir)

    def analyse(source: SourceFile, wrappers: WrapperSource | None) -> FileResult:
        """One file; an unexpected error skips that file only."""
        try:
            return analyse_file(source, max_bytes, hook_map, wrappers)
        except Exception as error:  # noqa: BLE001 - one bad file must not abort the run
            return FileResult(source.display, skipped=f"internal error while scanning: {type(error).__name__}: {error}")

    return WrapperLookup(sources, claims, analyse)


def _without_covered_fallbacks(findings: list[Finding], rules: dict[str, Rule]) -> list[Finding]:
    """A fallback rule's finding goes where another rule reports on the same line (`Rule.fallback`):
    `class StopHook(tf.train.SessionRunHook)` is one hook subclass to rewrite (TFM201), not also a TF1-only name;
    a `tf1_code_only` rule's goes where no other rule finds TF1 code in the scan (TF2 code's `tf.where`)."""
    fallback = fallback_codes()
    tf1_only = frozenset(code for code, rule in rules.items() if rule.tf1_code_only)
    covered = {(finding.path, finding.cell, finding.line) for finding in findings if finding.code not in fallback}
    tf1_code = any(finding.code not in tf1_only for finding in findings)
    return [
        finding for finding in findings
        if (finding.code not in fallback or (finding.path, finding.cell, finding.line) not in covered)
        and (finding.code not in tf1_only or tf1_code)
    ]


def _whole_codebase_findings(kind: type, items: list) -> list[Finding]:
    """Findings of the checks registered for a whole-codebase fact (`HookInstantiation`, ...)."""
    findings = []
    for item in items:
        for rule, check in CHECKS.get(kind, ()):
            for where, message in check(item, None):
                findings.append(Finding(where.path, where.cell, where.line, where.column, rule.code, message))
    return findings


def _hook_findings(hooks: list[HookClass]) -> list[Finding]:
    """Findings about each hook class, and those its protocol methods' checks kept for hooks."""
    findings = []
    for hook in hooks:
        findings.extend(hook.findings)
        for rule, check in CHECKS.get(HookClass, ()):
            for where, message in check(hook, None):
                findings.append(Finding(where.path, where.cell, where.line, where.column, rule.code, message))
    return findings


def _suppressed(finding: Finding, suppressions: dict) -> bool:
    by_line = suppressions.get(finding.path)
    if not by_line or (finding.cell, finding.line) not in by_line:
        return False
    codes = by_line[(finding.cell, finding.line)]
    return codes is None or finding.code in codes


class _Progress:
    """`n/total files` on a terminal's stderr for large trees; silent otherwise."""

    def __init__(self, stream: TextIO | None, total: int) -> None:
        self.stream = stream if stream is not None and total >= PROGRESS_THRESHOLD else None
        self.total = total
        self.done = 0
        self.shown = 0.0

    def advance(self, count: int) -> None:
        self.done += count
        if self.stream is None:
            return
        now = time.monotonic()
        if now - self.shown >= 0.1 or self.done == self.total:
            self.shown = now
            self.stream.write(f"\rmigrate report: {self.done}/{self.total} files")
            self.stream.flush()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()
