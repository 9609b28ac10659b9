"""Where the user wrote something: the innermost stack frame outside TensorFlow, Keras, Python and `migrate`."""
from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

_LIBRARY_MARKERS = (f"{os.sep}site-packages{os.sep}", f"{os.sep}dist-packages{os.sep}")
_OWN = str(Path(__file__).resolve().parent) + os.sep
_STDLIB = os.path.dirname(os.__file__) + os.sep


def is_user_file(filename: str) -> bool:
    if not filename or filename.startswith("<"):
        return False
    if any(marker in filename for marker in _LIBRARY_MARKERS):
        return False
    return not (filename.startswith(_OWN) or filename.startswith(_STDLIB) or filename.startswith(sys.prefix + os.sep))


def user_location(frames: Iterable) -> str:
    """``file:line`` of the innermost user frame of `frames` (objects with `filename` and `lineno`), or ""."""
    found = ""
    for frame in frames:
        if is_user_file(frame.filename):
            found = f"{relative(frame.filename)}:{frame.lineno}"
    return found


def relative(filename: str) -> str:
    """A path relative to the working directory when it is inside it (PORT.md reads better), else as it is."""
    try:
        return str(Path(filename).resolve().relative_to(Path.cwd()))
    except ValueError:
        return filename
