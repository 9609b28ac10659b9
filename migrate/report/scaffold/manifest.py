"""What the scaffolder last wrote into an output directory, so a second run never overwrites the user's edits.

`.migrate-scaffold.json` in the output directory holds the SHA-256 of each
file as generated. On the next run a file is replaced only if it still has
the content recorded (the user did not touch it) or already has the new
content; any other existing file (edited, or not ours) is kept, and the new
skeleton is written beside it as `NAME.py.new` for the user to merge.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import NamedTuple

MANIFEST = ".migrate-scaffold.json"
FORMAT = "migrate-scaffold-manifest"


class Written(NamedTuple):
    """One skeleton: the file written, and the edited file it was kept beside (when written as `.new`)."""

    path: Path
    kept: Path | None = None


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Manifest:
    """The recorded digests of one output directory; `write` applies the rule above, `save` records it."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / MANIFEST
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
            files = document.get("files", {}) if document.get("format") == FORMAT else {}
        except (OSError, ValueError, AttributeError):
            files = {}
        self.files: dict[str, str] = {name: value for name, value in files.items() if isinstance(value, str)}

    def write(self, path: Path, source: str) -> Written:
        try:
            current = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            current = None
        except (OSError, UnicodeDecodeError):
            current = ""  # unreadable or not text: not ours to replace
        if current is not None and current != source and self.files.get(path.name) != digest(current):
            fresh = path.with_name(path.name + ".new")
            _write(fresh, source)
            return Written(fresh, kept=path)
        if current != source:
            _write(path, source)
        self.files[path.name] = digest(source)
        return Written(path)

    def save(self) -> None:
        _write(self.path, json.dumps({"format": FORMAT, "files": dict(sorted(self.files.items()))}, indent=1) + "\n")


def _write(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
