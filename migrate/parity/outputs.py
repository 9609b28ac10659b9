"""Writing what a parity run found, so that a finished run is never lost.

A parity run trains for minutes; its outputs are written at the very end. So:

- every output location (`--out`, `--record`) is checked *before* training
  (`check_output_dir`, `check_output_file`): it is created, or it is a
  directory we can write into, or the run stops at once with a usage error
  (exit 2) that names it;
- every file is written atomically (`write_text_atomic`: a temporary file in the
  same directory, then a rename), so a killed run leaves the previous output
  or the new one, never half of one;
- the JSON is strict (`strict_json`, the side traces' codec): a non-finite
  float (a loss that became NaN) is written as the object ``{"float": "NaN"}``
  (or ``"Infinity"``, ``"-Infinity"``: the spellings `float()` reads back),
  never as the bare `NaN` token most JSON parsers reject;
- the loss plot is optional: without matplotlib, or if drawing
  fails, the JSON and Markdown are still written and the report says why the
  plot is missing. (matplotlib is in the `tf215` and `tf221` extras, so an
  install made for parity has it; a hand-made environment may not.)
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from migrate.core.atomic_write import replace_with, write_text_atomic
from migrate.core.cli import UsageError

if TYPE_CHECKING:
    from migrate.parity.result import ParityResult

def check_output_dir(path: Path, flag: str) -> None:
    """Create `path` (a directory) if needed and prove a file can be written in it; else a usage error."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"{flag} {path} exists and is not a directory: name a directory (it is created if missing)")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".write-check-"):
            pass
    except OSError as error:
        raise UsageError(
            f"{flag} {path} cannot be written ({error.strerror or error}): choose a directory you can write to; "
            "nothing was trained"
        ) from None


def check_output_file(path: Path, flag: str) -> None:
    """`path` can be written as a file (its directory is created if needed); else a usage error."""
    if path.is_dir():
        raise UsageError(f"{flag} {path} is a directory: name a file")
    check_output_dir(path.parent, f"{flag}'s directory")  # a bare file name's parent is "."


def strict_json(value: Any, indent: int | None = 2) -> str:
    """`value` as strict JSON, written by the side traces' codec: a non-finite float is ``{"float": "NaN"}``."""
    # imported here: side_trace imports numpy, and `migrate parity` must load without it (exit 2, not a traceback)
    from migrate.core.side_trace import encode

    return json.dumps(encode(value), indent=indent, allow_nan=False)


def write_parity_outputs(result: ParityResult, out: Path) -> tuple[dict[str, Path], list[str]]:
    """The single-process outputs: summary JSON first (the verdict), then the plot, then the Markdown report.

    Returns the files written and notes for the terminal (a missing plot and why)."""
    from migrate.parity.plot import plot_losses
    from migrate.parity.render import markdown_report

    out.mkdir(parents=True, exist_ok=True)
    written = {"summary": write_text_atomic(out / "parity-summary.json", strict_json(result.summary()))}
    notes: list[str] = []
    if result.losses is not None:  # drawn beside its target and renamed into place, or said missing and why
        try:
            written["plot"] = replace_with(out / "parity-losses.png", lambda path: plot_losses(result, path))
        except ImportError as error:
            if (getattr(error, "name", None) or "").partition(".")[0] != "matplotlib":
                raise
            notes.append("the loss plot parity-losses.png was not drawn: matplotlib is not installed "
                         "(`pip install matplotlib`, or install the tf215/tf221 extra)")
        except Exception as error:  # a plot must never cost the run its report
            notes.append("the loss plot parity-losses.png was not drawn: drawing it failed: "
                         f"{type(error).__name__}: {error}")
    report = markdown_report(result, "parity-losses.png" if "plot" in written else None)
    report += "".join(f"\n> Note: {note}\n" for note in notes)
    written["report"] = write_text_atomic(out / "parity-report.md", report)
    return written, notes
