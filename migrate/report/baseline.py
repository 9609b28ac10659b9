"""Baselines for incremental migration: fail only on findings that are new.

A large codebase migrates over months; `migrate report --write-baseline FILE`
records today's findings, `--baseline FILE` hides them afterwards so a CI or
pre-commit run fails only on new TF1 code. A finding is matched by rule code,
file and a fingerprint of its source line — the line with its whitespace
normalised — never by line number, so edits elsewhere in the file, moved code
and re-indentation keep matching. Identical lines are counted: a second copy
of a baselined line is a new finding.

Paths are stored relative to the baseline file's directory with `/`, so the
same baseline works whatever directory `migrate report` is run from.

A run that scans some files only (pre-commit passes the staged ones) compares
and rewrites only those files' entries: entries of files it did not scan are
neither "gone" nor dropped by `--write-baseline`, unless the file no longer
exists.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from migrate.core.atomic_write import write_text_atomic
from migrate.report.model import Finding

FORMAT = "migrate-report-baseline"
VERSION = 1
_WHITESPACE = re.compile(r"\s+")


class BaselineError(ValueError):
    """The baseline file cannot be used; the message names the file and what to do."""


Key = tuple[str, str, str]
"""(rule code, path relative to the baseline, fingerprint)."""


@dataclass(frozen=True)
class Comparison:
    new: list[Finding]
    known: int
    gone: int


def write_baseline(path: str, findings: list[Finding], scanned: list[str] | None = None) -> int:
    """Record `findings` in `path`; returns the number of entries written.

    With `scanned` (the files this run scanned), an existing baseline's entries for other files that still
    exist are kept: a partial run rewrites only its own files' entries."""
    base = _base(path)
    counts = Counter(_keys(findings, base))
    if scanned is not None and os.path.exists(path):
        own = {_relative(file, base) for file in scanned}
        for key, count in load_baseline(path).items():
            if key[1] not in own and os.path.exists(os.path.join(base, key[1])):
                counts[key] += count
    entries = [
        {"code": code, "path": relative, "fingerprint": fingerprint, "count": count}
        for (code, relative, fingerprint), count in sorted(counts.items())
    ]
    document = {"format": FORMAT, "version": VERSION, "findings": entries}
    try:
        write_text_atomic(path, json.dumps(document, indent=1) + "\n")
    except OSError as error:
        raise BaselineError(f"cannot write baseline {path}: {error.strerror or error}") from None
    return len(entries)


def load_baseline(path: str) -> Counter[Key]:
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BaselineError(f"baseline {path} does not exist; create it with --write-baseline {path}") from None
    except (OSError, ValueError) as error:
        raise BaselineError(f"baseline {path} is not readable JSON ({error}); re-create it with --write-baseline") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("version") != VERSION:
        raise BaselineError(f"{path} is not a migrate report baseline (format {FORMAT} version {VERSION}); re-create it with --write-baseline")
    counts: Counter[Key] = Counter()
    try:
        for entry in document["findings"]:
            counts[(entry["code"], entry["path"], entry["fingerprint"])] += int(entry["count"])
    except (KeyError, TypeError, ValueError) as error:
        raise BaselineError(f"baseline {path} has a malformed entry ({error!r}); re-create it with --write-baseline") from None
    return counts


def compare(path: str, findings: list[Finding], scanned: list[str] | None = None) -> Comparison:
    """The findings not covered by the baseline at `path` (the last copies when counts differ).

    `gone` counts the baselined findings no longer found in the files scanned (`scanned`; default: every
    file of the baseline), never those of files this run did not look at."""
    remaining = load_baseline(path)
    if scanned is not None:
        own = {_relative(file, _base(path)) for file in scanned}
        remaining = Counter({key: count for key, count in remaining.items() if key[1] in own})
    total = sum(remaining.values())
    new: list[Finding] = []
    for finding, key in zip(findings, _keys(findings, _base(path))):
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            new.append(finding)
    known = len(findings) - len(new)
    return Comparison(new=new, known=known, gone=total - known)


def _base(path: str) -> str:
    return os.path.dirname(os.path.abspath(path))


def finding_keys(findings: list[Finding], base: str) -> list[Key]:
    """(rule code, path relative to `base`, fingerprint of the source line) of each finding."""
    return _keys(findings, base)


def _keys(findings: list[Finding], base: str) -> list[Key]:
    lines = _LineCache()
    return [
        (finding.code, _relative(finding.path, base), fingerprint(lines.get(finding.path, finding.cell, finding.line)))
        for finding in findings
    ]


def fingerprint(line: str) -> str:
    """A short hash of the source line with whitespace normalised (indentation-proof)."""
    normalised = _WHITESPACE.sub(" ", line).strip()
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest()[:16]


def _relative(path: str, base: str) -> str:
    return os.path.relpath(os.path.abspath(path), base).replace(os.sep, "/")


class _LineCache:
    """Source lines by (path, cell, line), reading each file once; '' when unavailable."""

    def __init__(self) -> None:
        self.files: dict[str, dict[int | None, list[str]]] = {}

    def get(self, path: str, cell: int | None, line: int) -> str:
        if path not in self.files:
            self.files[path] = _read_lines(path)
        lines = self.files[path].get(cell, [])
        return lines[line - 1] if 0 < line <= len(lines) else ""


def _read_lines(path: str) -> dict[int | None, list[str]]:
    try:
        data = Path(path).read_bytes()
    except OSError:
        return {}
    if path.endswith(".ipynb"):
        try:
            cells = json.loads(data).get("cells", [])
        except (ValueError, AttributeError):
            return {}
        out: dict[int | None, list[str]] = {}
        for number, cell in enumerate(cells, 1):
            source = cell.get("source", "") if isinstance(cell, dict) else ""
            text = "".join(source) if isinstance(source, list) else str(source)
            out[number] = text.splitlines()
        return out
    return {None: data.decode("utf-8", errors="replace").splitlines()}
